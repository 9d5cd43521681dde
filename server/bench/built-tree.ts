/**
 * A built server tree (its `server/dist`, with `shared/dist` beside it) loaded by path, so the in-process
 * benchmarks can compare two checkouts in one way: the app, the services and the memory repository.
 * `Services` is the shape the caller reads of `createServices`' answer.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface BuiltTree<Services = unknown> {
  /** The `file:` URL of the tree's `server/dist`, for further imports. */
  readonly dist: string;
  readonly createApp: (options: unknown) => {
    request: (url: string, init?: RequestInit) => Promise<Response>;
  };
  readonly createServices: (deps: unknown) => Services;
  readonly createMemoryConfigRepository: () => unknown;
}

/** Loads the built server under `root`. */
export async function loadBuiltTree<Services = unknown>(
  root: string,
): Promise<BuiltTree<Services>> {
  const dist = pathToFileURL(resolve(root, 'server/dist')).href;
  const { createApp } = (await import(
    `${dist}/http/app.js`
  )) as BuiltTree<Services>;
  const { createServices } = (await import(
    `${dist}/services/services.js`
  )) as BuiltTree<Services>;
  const { createMemoryConfigRepository } = (await import(
    `${dist}/storage/memory/memory-config-repository.js`
  )) as BuiltTree<Services>;
  return { dist, createApp, createServices, createMemoryConfigRepository };
}

type App = BuiltTree['createApp'] extends (o: unknown) => infer A ? A : never;

const JSON_TYPE = { 'content-type': 'application/json' };

/** Sends one benchmark request (`method`, `path`, JSON `body`) to `app` in-process. */
export function sendTo(
  app: App,
  { method, path, body }: { method: string; path: string; body?: string },
): Promise<Response> {
  return app.request(`http://localhost${path}`, {
    method,
    headers: JSON_TYPE,
    ...(body === undefined ? {} : { body }),
  });
}

/** Stores every config of `dataset` through `PUT /configs/:name`; a refusal stops the benchmark. */
export async function putDataset(
  app: App,
  dataset: Iterable<{ name: string; json: string }>,
): Promise<void> {
  for (const { name, json } of dataset) {
    const response = await sendTo(app, {
      method: 'PUT',
      path: `/configs/${name}`,
      body: json,
    });
    if (response.status >= 300)
      throw new Error(`PUT ${name}: ${response.status}`);
  }
}
