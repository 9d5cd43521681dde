/**
 * Before measuring, the first requests of each scenario are sent once to our server and to the baseline:
 * every answer must be a 2xx (a scenario that answers errors would measure the error path), the two
 * servers' answers are compared (the baseline is only a fair yardstick if it answers the same), and our
 * answers are kept for the ceiling to replay.
 */
import { isDeepStrictEqual } from 'node:util';
import { captureResponse } from './ceiling-file.js';
import type { CapturedResponse } from './ceiling-file.js';
import { requestHeaders } from './load.js';
import type { BenchRequest } from './sequences/request-sequences.js';

/** Sends one request and captures the answer under `id`. */
export async function sendOnce(
  baseUrl: string,
  request: BenchRequest,
  id: string,
): Promise<CapturedResponse> {
  const init: RequestInit = {
    method: request.method,
    headers: requestHeaders(request),
  };
  if (request.body !== undefined) init.body = request.body;
  const res = await fetch(`${baseUrl}${request.path}`, init);
  return captureResponse(id, request.method, res);
}

/** The body of a capture as text. */
export const bodyText = (captured: CapturedResponse): string =>
  Buffer.from(captured.body, 'base64').toString('utf8');

/**
 * A one-line description of a response (status, bytes, result count), so a wrong scenario (0 results, an
 * error) shows up in the progress output before any measuring.
 *
 * @example
 * peek(captured); // "200, 28060 bytes, 100 results"
 */
export function peek(captured: CapturedResponse): string {
  const text = bodyText(captured);
  let what = '';
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value)) what = `${value.length} items`;
    else if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      const config = record['config'] as Record<string, unknown> | undefined;
      const inner =
        record['results'] ?? record['allLinks'] ?? config?.['allLinks'];
      if (Array.isArray(inner)) what = `${inner.length} results`;
      else if (typeof inner === 'object' && inner !== null)
        what = `${Object.keys(inner).length} keys`;
    }
  } catch {
    what = 'no JSON body';
  }
  const bytes = Buffer.byteLength(text);
  return `${captured.status}, ${bytes} bytes${what === '' ? '' : `, ${what}`}`;
}

/**
 * What two servers must agree on in an answer: the status and the JSON body, without the parts that
 * differ between correct implementations — `meta` timestamps of a config entry (each server stamped its
 * own writes) and `/search`'s `linksScanned` (how many links an implementation looked at is its business).
 */
export function comparable(captured: CapturedResponse): unknown {
  const text = bodyText(captured);
  let body: unknown = text;
  try {
    body = text === '' ? '' : JSON.parse(text);
  } catch {
    // not JSON: compare the text
  }
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const record = { ...(body as Record<string, unknown>) };
    if ('config' in record) delete record['meta'];
    if ('results' in record) delete record['linksScanned'];
    body = record;
  }
  return { status: captured.status, body };
}

/** Whether two answers agree (see {@link comparable}). */
export const sameAnswer = (a: CapturedResponse, b: CapturedResponse): boolean =>
  isDeepStrictEqual(comparable(a), comparable(b));

/** The first `count` requests of a scenario as captured from one server, ids `<scenario>/<k>`. */
export async function captureFirst(
  baseUrl: string,
  scenario: { id: string; title: string; requests: readonly BenchRequest[] },
): Promise<CapturedResponse[]> {
  const out: CapturedResponse[] = [];
  for (const [k, request] of scenario.requests.entries()) {
    const captured = await sendOnce(baseUrl, request, `${scenario.id}/${k}`);
    if (captured.status < 200 || captured.status > 299) {
      throw new Error(
        `${scenario.title}: ${request.method} ${request.path} answered ${peek(captured)}: ${bodyText(captured).slice(0, 300)}`,
      );
    }
    out.push(captured);
  }
  return out;
}
