import type { ConfigVersion } from './config-version.js';

const BODY = Symbol('entry bytes');

/**
 * The JSON bytes of a version's response entry (`GET /configs/{name}`), serialized once per version and
 * kept (and weighed) with it. Kept as UTF-8 bytes: every answer then writes them as they are (no encoding,
 * nothing allocated).
 */
export function entryBytes(view: ConfigVersion): Uint8Array<ArrayBuffer> {
  return view.derive(BODY, () => {
    const text = Buffer.from(JSON.stringify(view.entry), 'utf8');
    const bytes = new Uint8Array(text.buffer, text.byteOffset, text.byteLength);
    return {
      value: bytes as Uint8Array<ArrayBuffer>,
      weight: bytes.byteLength + 64,
    };
  });
}
