import { rememberReceivedJson } from '../received-json.js';
import { HttpError } from './http-error.js';

/** Limits applied to every JSON request body. */
export interface BodyLimits {
  /** Largest accepted body, in bytes. */
  readonly maxBytes: number;
  /** Deepest accepted nesting of objects and arrays. */
  readonly maxDepth: number;
}

/** The JSON media types we accept; a missing `Content-Type` is accepted too (reference servers do). */
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/**
 * Reads a request body as JSON, defensively: wrong media type → 415; over the size limit (declared or
 * actual) → 413 without reading further; not UTF-8, not JSON, nested too deep, or holding a `__proto__`
 * key → 400. Never throws anything but {@link HttpError}.
 */
export async function readJsonBody(
  request: Request,
  limits: BodyLimits,
): Promise<unknown> {
  checkContentType(request.headers.get('content-type'));
  const text = await readText(request, limits.maxBytes);
  if (text.trim() === '') {
    throw new HttpError(400, 'the request body is empty; send a JSON value');
  }
  if (nestingExceeds(text, limits.maxDepth)) {
    throw new HttpError(
      400,
      `the JSON body is nested deeper than ${limits.maxDepth} levels`,
    );
  }
  const value = parseJson(text);
  rememberReceivedJson(value, text);
  return value;
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

async function readText(request: Request, maxBytes: number): Promise<string> {
  const tooLarge = (): HttpError =>
    new HttpError(
      413,
      `the request body is larger than the limit of ${maxBytes} bytes`,
      { Connection: 'close' },
    );
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge();
  if (request.body === null) return '';
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
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(chunk.value);
  }
  const bytes = Buffer.concat(chunks, size);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(400, 'the request body is not valid UTF-8');
  }
}

/** One pass over the text, counting nesting outside strings; stops at the first level too deep. */
export function nestingExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
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
