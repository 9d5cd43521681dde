/**
 * The lines of a backup file, read as they are asked for and bounded in length, and the error that
 * says why a file cannot be restored.
 */
import { createReadStream } from 'node:fs';

/** A backup that cannot be restored, with the line that says why. */
export class BackupFileError extends Error {
  override readonly name = 'BackupFileError';
}

/**
 * The longest line a backup may hold when configs are at most `maxConfigBytes` of UTF-8 (`BODY_LIMIT`,
 * the largest body that stores a config): a config's text written as a JSON string is at most twice its
 * bytes (each `"` and `\` escaped), a revision's base64 data at most 4/3 of a deflated or changed text,
 * and 64 KiB leave room for the other fields. Counted in UTF-16 units, never more than the line's bytes.
 */
export const maxLineLength = (maxConfigBytes: number): number =>
  2 * maxConfigBytes + 64 * 1024;

/**
 * The lines of a file, read as they are asked for: the stream is pulled chunk by chunk, so a reader
 * that waits for its writes holds at most a chunk and a line (`readline` would go on reading ahead).
 * A line longer than `maxLength` is refused as soon as that much of it is read.
 */
export async function* readLines(
  file: string,
  maxLength: number,
  onBytes?: (bytesRead: number) => void,
): AsyncGenerator<string> {
  // The start of the current line, in pieces joined once its end arrives: a long line is not copied
  // and searched again with every chunk.
  let pieces: string[] = [];
  let pending = 0;
  let line = 0;
  const tooLong = (): BackupFileError =>
    new BackupFileError(
      `${file}, line ${line + 1}: longer than ${maxLength} characters, more than a config within BODY_LIMIT needs (a damaged file, or BODY_LIMIT lower than where the backup was made)`,
    );
  const stream = createReadStream(file, { encoding: 'utf8' });
  for await (const chunk of stream) {
    onBytes?.(stream.bytesRead);
    const text = String(chunk);
    let start = 0;
    for (
      let end = text.indexOf('\n');
      end !== -1;
      end = text.indexOf('\n', start)
    ) {
      const tail = text.slice(start, end);
      if (pending + tail.length > maxLength) throw tooLong();
      const whole = pending === 0 ? tail : pieces.join('') + tail;
      pieces = [];
      pending = 0;
      line++;
      yield whole;
      start = end + 1;
    }
    if (start < text.length) {
      pieces.push(text.slice(start));
      pending += text.length - start;
      if (pending > maxLength) throw tooLong();
    }
  }
  if (pending > 0) yield pieces.join('');
}
