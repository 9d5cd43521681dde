/** Turns offsets into a text into 1-based line and column numbers, for reports about where a link was. */
import type { SourcePosition } from '../schemas/index.js';

/** A lookup from offset to position; built once per file (one pass), each lookup a binary search. */
export function sourceLines(text: string): (offset: number) => SourcePosition {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    starts.push(i + 1);
  }
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (starts[low] ?? 0) + 1 };
  };
}
