/**
 * Loads the dataset into a running server through the REST API only: one `PUT /configs/:name` per config,
 * a few in parallel, each required to answer 204.
 */
import { generateDataset } from './dataset.js';
import type { DatasetOptions } from './dataset.js';

/** What was loaded. */
export interface UploadSummary {
  configs: number;
  links: number;
  bytes: number;
  ms: number;
}

/** PUTs one config; throws with the server's answer unless it is 204. */
export async function putConfig(
  baseUrl: string,
  name: string,
  json: string,
): Promise<void> {
  const res = await fetch(`${baseUrl}/configs/${encodeURIComponent(name)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: json,
  });
  const text = await res.text();
  if (res.status !== 204) {
    throw new Error(
      `PUT /configs/${name} answered ${res.status}: ${text.slice(0, 300)}`,
    );
  }
}

/**
 * Uploads `options.configs` configs with `parallel` requests in flight; `onProgress` gets the count done.
 */
export async function uploadDataset(
  baseUrl: string,
  options: DatasetOptions & {
    parallel?: number;
    onProgress?: (done: number) => void;
  },
): Promise<UploadSummary> {
  const started = performance.now();
  const configs = generateDataset(options);
  let bytes = 0;
  let links = 0;
  let done = 0;
  const worker = async () => {
    for (let next = configs.next(); next.done !== true; next = configs.next()) {
      const { name, json, config } = next.value;
      bytes += Buffer.byteLength(json);
      links += Object.keys(config.allLinks).length;
      await putConfig(baseUrl, name, json);
      done += 1;
      options.onProgress?.(done);
    }
  };
  await Promise.all(Array.from({ length: options.parallel ?? 4 }, worker));
  return {
    configs: options.configs,
    links,
    bytes,
    ms: performance.now() - started,
  };
}
