import { isAscii, isUtf8 } from 'node:buffer';

/**
 * A text together with its UTF-8 bytes, made only by decoding those bytes ({@link Utf8Text.decoded}): valid
 * UTF-8 decodes one way and encodes back to the same bytes, so the bytes are exactly the text's UTF-8 form
 * (a byte order mark included: it is decoded as U+FEFF, not dropped). A write given one may store the bytes
 * as they are (SQLite binds them as a blob cast to TEXT) instead of encoding the text again.
 */
export class Utf8Text {
  private constructor(
    readonly text: string,
    readonly bytes: Uint8Array,
  ) {}

  /** `bytes` decoded, or `undefined` when they are not valid UTF-8 (then nothing is decoded). */
  static decoded(bytes: Uint8Array): Utf8Text | undefined {
    const buffer = Buffer.from(
      bytes.buffer,
      bytes.byteOffset,
      bytes.byteLength,
    );
    // ASCII bytes (most configs) are UTF-8 whose every byte is one unit, so the Latin-1 decoding reads
    // them as the UTF-8 decoder would, with a plain copy instead of its per-character work.
    if (isAscii(buffer)) return new Utf8Text(buffer.toString('latin1'), buffer);
    // `isUtf8` and `toString` run natively over the bytes (cheaper than a fatal TextDecoder, which would
    // also drop a leading byte order mark by default).
    if (!isUtf8(buffer)) return undefined;
    return new Utf8Text(buffer.toString('utf8'), buffer);
  }
}

/** The text a write stores: a string, or a text that comes with its UTF-8 bytes ({@link Utf8Text}). */
export type StoredText = string | Utf8Text;

/** The string of a {@link StoredText}. */
export const textOf = (json: StoredText): string =>
  typeof json === 'string' ? json : json.text;
