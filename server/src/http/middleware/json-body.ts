import { inspectJsonTextInSlices, linkEditOfText } from '@linkconfig/shared';
import type { JsonTextFacts } from '@linkconfig/shared';
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import type { InputType, ZlibOptions } from 'node:zlib';
import { EVENT_LOOP_SLICES } from '../../event-loop.js';
import { ReceivedJson } from '../../received-json.js';
import { Utf8Text } from '../../storage/stored-text.js';
import type { EditTemplate } from '../../received-json.js';
import { HttpError } from '../http-error.js';
import { paced } from './body-pace.js';
import { readNodeBody } from './node-body.js';
import type { BodyProgress } from './body-pace.js';

/** Options of {@link readJsonBody}. */
export interface ReadOptions {
  /**
   * Check the nesting depth here (default). A route whose body is a config to store leaves it to the
   * config check, which walks the value once for both.
   */
  readonly checkDepth?: boolean;
  /**
   * Node's request, when the route runs under Node's HTTP server: a body of declared length is read
   * from it straight ({@link readNodeBody}), without the copy `Request.arrayBuffer()` makes.
   */
  readonly incoming?: IncomingMessage | undefined;
  /** How much of the body has arrived (`bodyProgress`), for the floor on its rate. */
  readonly progress?: BodyProgress | undefined;
  /**
   * For a config body (`checkDepth: false`): the stored version the body most likely edits. When the
   * body differs from it only within some links (`linkEditOfText`), only those are parsed and checked,
   * and the answer carries the edit instead of a parsed value; otherwise the body is read in full.
   */
  readonly template?: EditTemplate | undefined;
}

/** Limits applied to every JSON request body. */
export interface BodyLimits {
  /** Largest accepted body, in bytes. */
  readonly maxBytes: number;
  /** Deepest accepted nesting of objects and arrays. */
  readonly maxDepth: number;
  /** The limit's name, said in 413 answers (`INLINE_BODY_LIMIT, …`); absent, the limit is said as bytes only. */
  readonly name?: string;
  /**
   * Slowest accepted arrival, in bytes per second after the first second of reading (`BODY_MIN_RATE`;
   * absent or 0: none). A body that falls behind is cut with 408 (see `body-pace.ts`).
   */
  readonly minBytesPerSecond?: number;
}

/** The JSON media types we accept; a missing `Content-Type` is accepted too (reference servers do). */
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

type Decoder = (buffer: InputType, options: ZlibOptions) => Promise<Buffer>;

/** The content codings a request body may use, with their decoders (HTTP's names; `x-gzip` is gzip). */
const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/** Said in a 415 answer, as RFC 9110 suggests for an unsupported coding. */
const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

/**
 * Reads a request body as JSON, defensively: wrong media type or unknown `Content-Encoding` → 415; over
 * the size limit (declared, actual, or once decompressed) → 413 without reading or inflating further;
 * arriving slower than `minBytesPerSecond` → 408 without waiting for the rest; not UTF-8, not JSON, not
 * valid compressed data, nested too deep, holding a `__proto__` key, or not readable back as sent
 * ({@link refuseUnfaithfulJson}) → 400. Never throws anything but {@link HttpError}. Answers
 * the value with the text it was parsed from, so a config can be stored exactly as received and a reusable
 * answer keyed by the request's text.
 */
export async function readJsonBody(
  request: Request,
  limits: BodyLimits,
  options: ReadOptions = {},
): Promise<ReceivedJson> {
  checkContentType(request.headers.get('content-type'));
  const decoder = decoderFor(request.headers.get('content-encoding'));
  const raw = await paced(
    readBytes(request, limits, options.incoming),
    limits.minBytesPerSecond ?? 0,
    options.progress,
  );
  const body = decode(
    decoder === undefined ? raw : await decompress(raw, { decoder, limits }),
  );
  const { text } = body;
  if (text.trim() === '') {
    throw new HttpError(400, 'the request body is empty; send a JSON value');
  }
  const { template } = options;
  if (template !== undefined && options.checkDepth === false) {
    // Valid, read back as sent and accepted by the config check: what the full reading below would find.
    const edit = linkEditOfText(template, text, template.maxDepth);
    if (edit !== undefined)
      return ReceivedJson.edited(body, { template, edit });
  }
  // V8 parses iteratively, so even absurd nesting parses; the depth is then checked on the value.
  const value = parseJson(text);
  const { depth } = await refuseUnfaithfulJson(text);
  if ((options.checkDepth ?? true) && depth > limits.maxDepth) {
    throw new HttpError(
      400,
      `the JSON body is nested deeper than ${limits.maxDepth} levels`,
    );
  }
  return new ReceivedJson(value, body, depth);
}

function checkContentType(header: string | null): void {
  if (header === null || header.trim() === '') return;
  const [type = '', ...params] = header.split(';');
  if (!JSON_TYPE.test(type.trim())) {
    throw new HttpError(
      415,
      `Content-Type must be application/json (got "${type.trim()}")`,
    );
  }
  for (const param of params) {
    const [key = '', value = ''] = param.split('=');
    if (
      key.trim().toLowerCase() === 'charset' &&
      !/^"?utf-?8"?$/i.test(value.trim())
    ) {
      throw new HttpError(415, 'the JSON body must be encoded as UTF-8');
    }
  }
}

/**
 * The decoder a `Content-Encoding` asks for, or `undefined` for none. Anything we cannot decode (including
 * a list of several codings) is refused: parsing compressed bytes as if they were plain would answer a
 * misleading 400, or store garbage.
 */
function decoderFor(header: string | null): Decoder | undefined {
  const coding = header?.trim().toLowerCase() ?? '';
  if (coding === '' || coding === 'identity') return undefined;
  const decoder = Object.hasOwn(DECODERS, coding)
    ? DECODERS[coding]
    : undefined;
  if (decoder === undefined) {
    throw new HttpError(
      415,
      `Content-Encoding "${header?.trim().slice(0, 40)}" is not supported; send ${ACCEPTED_ENCODINGS} or no encoding`,
      { 'Accept-Encoding': ACCEPTED_ENCODINGS },
    );
  }
  return decoder;
}

/**
 * Decompresses with the body limit applied to the output: zlib stops as soon as the output would pass it,
 * so a small body that inflates to gigabytes (a "zip bomb") costs at most `maxBytes` of work and memory.
 * It runs on libuv's thread pool, not on the event loop.
 */
async function decompress(
  bytes: Uint8Array,
  options: { decoder: Decoder; limits: BodyLimits },
): Promise<Uint8Array> {
  try {
    // Large output chunks: fewer round trips to the thread pool for a big body.
    return await options.decoder(bytes, {
      maxOutputLength: Math.max(1, options.limits.maxBytes),
      chunkSize: 64 * 1024,
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new HttpError(
        413,
        tooLargeMessage(options.limits, ' once decompressed'),
      );
    }
    throw new HttpError(
      400,
      'the request body is not valid data for its Content-Encoding',
    );
  }
}

/** What a 413 says: the limit in bytes, and its name when it has one. */
export function tooLargeMessage(limits: BodyLimits, when = ''): string {
  const name = limits.name === undefined ? '' : ` (${limits.name})`;
  return `the request body is larger than the limit of ${limits.maxBytes} bytes${when}${name}`;
}

/** Bytes read and thrown away after a 413 so the client sees the answer, not a reset connection. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

async function readBytes(
  request: Request,
  limits: BodyLimits,
  incoming: IncomingMessage | undefined,
): Promise<Uint8Array> {
  const { maxBytes } = limits;
  const declared = request.headers.get('content-length');
  const length = declared === null ? NaN : Number(declared);
  if (length > maxBytes) throw await tooLarge(request, limits);
  // With a declared length, Node's parser already frames the body: read it in one go (the fast path).
  if (Number.isFinite(length)) {
    const direct =
      incoming === undefined ? undefined : readNodeBody(incoming, length);
    return direct ?? new Uint8Array(await readAll(request));
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch {
      throw new HttpError(400, 'the request body could not be read');
    }
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > maxBytes) {
      reader.releaseLock();
      throw await tooLarge(request, limits);
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks, size);
}

async function readAll(request: Request): Promise<ArrayBuffer> {
  try {
    return await request.arrayBuffer();
  } catch {
    throw new HttpError(400, 'the request body could not be read');
  }
}

/**
 * The 413 answer. The rest of the body is read and discarded first (up to a cap), because a client still
 * sending would otherwise see a reset connection instead of the answer; beyond the cap the connection closes.
 */
async function tooLarge(
  request: Request,
  limits: BodyLimits,
): Promise<HttpError> {
  const message = tooLargeMessage(limits);
  let drained = 0;
  try {
    const reader = request.body?.getReader();
    while (reader !== undefined && drained <= DRAIN_LIMIT) {
      const chunk = await reader.read();
      if (chunk.done) return new HttpError(413, message);
      drained += chunk.value.byteLength;
    }
    if (reader === undefined) return new HttpError(413, message);
    await reader.cancel().catch(() => undefined);
  } catch {
    // The client went away or the stream failed: nothing left to drain.
  }
  return new HttpError(413, message, { Connection: 'close' });
}

/** The body's text, with the (decompressed) bytes it was decoded from: a write may store those as they are. */
function decode(bytes: Uint8Array): Utf8Text {
  const decoded = Utf8Text.decoded(bytes);
  if (decoded === undefined) {
    throw new HttpError(400, 'the request body is not valid UTF-8');
  }
  return decoded;
}

/**
 * Parses, refusing the prototype-pollution shapes (`__proto__` keys, and `prototype` inside `constructor`)
 * at any depth. They can only appear literally or through `\u` escapes, so plain texts skip the reviver.
 */
function parseJson(text: string): unknown {
  const suspicious =
    text.includes('__proto__') ||
    text.includes('prototype') ||
    text.includes('\\u');
  try {
    return suspicious
      ? JSON.parse(text, (key, value: unknown) => {
          if (key === '__proto__') throw new ProtoKeyError();
          if (
            key === 'constructor' &&
            typeof value === 'object' &&
            value !== null &&
            Object.hasOwn(value, 'prototype')
          ) {
            throw new ProtoKeyError();
          }
          return value;
        })
      : (JSON.parse(text) as unknown);
  } catch (error) {
    if (error instanceof ProtoKeyError) {
      throw new HttpError(
        400,
        'the JSON body must not contain "__proto__" keys or a "prototype" key inside "constructor"',
      );
    }
    const reason = error instanceof Error ? error.message : 'syntax error';
    throw new HttpError(400, `the request body is not valid JSON: ${reason}`);
  }
}

class ProtoKeyError extends Error {}

/**
 * Refuses (400, saying where) a body whose value would not read back as sent: a number too large for a
 * double, an integer literal a double cannot hold exactly, a repeated key (see json-fidelity.ts in shared). Every
 * JSON body passes here: stored configs (REST and tRPC) and inline ones alike. The same scan measures the
 * body's nesting depth, answered for the depth checks.
 */
async function refuseUnfaithfulJson(text: string): Promise<JsonTextFacts> {
  // A linear scan of the whole text: in slices, so a large body does not hold the event loop.
  const facts = await inspectJsonTextInSlices(text, EVENT_LOOP_SLICES);
  const found = facts.infidelity;
  if (found !== undefined) {
    throw new HttpError(
      400,
      `the JSON body cannot be kept as sent at ${found.path}: ${found.reason}`,
    );
  }
  return facts;
}
