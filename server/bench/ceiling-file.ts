/**
 * The captured responses the ceiling server replays: written by the benchmark after asking the real
 * server once per scenario, read by `ceiling.ts` in its own process.
 */
import { readFile, writeFile } from 'node:fs/promises';

/** One captured response. */
export interface CapturedResponse {
  /** The scenario id (the ceiling serves it at `/<id>`). */
  id: string;
  method: string;
  status: number;
  /** Response headers worth replaying (hop-by-hop ones, `date` and `content-length` left out). */
  headers: Record<string, string>;
  /** The body, base64. */
  body: string;
}

const SKIPPED_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
]);

/** Captures one response: status, replayable headers and body bytes. */
export async function captureResponse(
  id: string,
  method: string,
  res: Response,
): Promise<CapturedResponse> {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, key) => {
    if (!SKIPPED_HEADERS.has(key)) headers[key] = value;
  });
  const body = Buffer.from(await res.arrayBuffer()).toString('base64');
  return { id, method, status: res.status, headers, body };
}

/** Writes the captures for the ceiling process. */
export async function writeCeilingFile(
  path: string,
  responses: readonly CapturedResponse[],
): Promise<void> {
  await writeFile(path, JSON.stringify({ responses }));
}

/** Reads what {@link writeCeilingFile} wrote. */
export async function readCeilingFile(
  path: string,
): Promise<CapturedResponse[]> {
  const parsed = JSON.parse(await readFile(path, 'utf8')) as {
    responses: CapturedResponse[];
  };
  return parsed.responses;
}
