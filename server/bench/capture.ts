/**
 * Asks the real server each scenario once before measuring: the answers are checked (a scenario that
 * answers an error would measure the error path) and kept for the ceiling to replay.
 */
import { captureResponse } from './ceiling-file.js';
import type { CapturedResponse } from './ceiling-file.js';
import { bodyHeaders, PUT_NAME } from './scenarios.js';
import type { Scenario } from './scenarios.js';

/** Sends a scenario's request once. */
export async function fetchScenario(
  baseUrl: string,
  scenario: Scenario,
): Promise<Response> {
  const init: RequestInit = {
    method: scenario.method,
    headers: bodyHeaders(scenario),
  };
  if (scenario.body !== undefined) init.body = scenario.body;
  return fetch(`${baseUrl}${scenario.path}`, init);
}

/**
 * A one-line description of a response (status, bytes, result count), so a wrong scenario (0 results, an
 * error) shows up in the progress output before any measuring.
 *
 * @example
 * peek(captured); // "200, 28060 bytes, 100 results"
 */
export function peek(captured: CapturedResponse): string {
  const text = Buffer.from(captured.body, 'base64').toString('utf8');
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
 * Asks each scenario once and returns the captured answers; throws on a non-2xx answer. The PUT's config
 * is deleted again right away, since the PUT is measured last and the dataset must not grow before.
 */
export async function captureScenarios(
  baseUrl: string,
  scenarios: readonly Scenario[],
  progress: (message: string) => void,
): Promise<CapturedResponse[]> {
  const out: CapturedResponse[] = [];
  for (const scenario of scenarios) {
    const res = await fetchScenario(baseUrl, scenario);
    const captured = await captureResponse(scenario.id, scenario.method, res);
    progress(`  ${scenario.id}: ${peek(captured)}`);
    if (res.status < 200 || res.status > 299) {
      const body = Buffer.from(captured.body, 'base64').toString();
      throw new Error(
        `${scenario.title} answered ${peek(captured)}: ${body.slice(0, 500)}`,
      );
    }
    if (scenario.method === 'PUT' && scenario.path.endsWith(`/${PUT_NAME}`)) {
      const res = await fetch(`${baseUrl}/configs/${PUT_NAME}`, {
        method: 'DELETE',
      });
      await res.arrayBuffer();
    }
    out.push(captured);
  }
  return out;
}
