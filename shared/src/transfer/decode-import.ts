/**
 * An import file's bytes as text. A file that is not valid UTF-8 is still read (each bad byte sequence
 * becomes U+FFFD, as browsers and Node decode it), but never silently: the lines that held such bytes
 * are named, so the import can report them and refuse URLs that were changed by them.
 */

/** A decoded file: its text, and the 1-based lines that held bytes which are not UTF-8. */
export interface DecodedImport {
  readonly text: string;
  readonly malformedLines: readonly number[];
}

const strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

/** Decodes `bytes` as UTF-8 (a byte order mark is dropped), naming the lines with malformed bytes. */
export function decodeImportBytes(bytes: Uint8Array): DecodedImport {
  try {
    return { text: strict.decode(bytes), malformedLines: [] };
  } catch {
    // Not UTF-8 somewhere: find where, line by line. A line feed byte never sits inside a multi-byte
    // sequence, so each line decodes on its own.
  }
  const malformedLines: number[] = [];
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    try {
      strict.decode(bytes.subarray(start, i));
    } catch {
      malformedLines.push(line);
    }
    line++;
    start = i + 1;
  }
  return { text: lenient.decode(bytes), malformedLines };
}
