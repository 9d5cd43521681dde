/**
 * Where `import` and `export` read and write one config: a running server over REST (with the version's
 * ETag sent back in `If-Match`, so an edit made meanwhile is never overwritten), or a database opened
 * directly (`--database-url`), written through the same `ConfigService` rules the server applies.
 */
import type { LinkConfig } from '@linkconfig/shared';
import { callServer, failure } from './server-call.js';
import type { RestTarget } from './server-call.js';

export type { RestTarget } from './server-call.js';

/** A config as read, with the version a write must find still stored (`null`: it must not exist yet). */
export interface ReadConfig {
  readonly config: LinkConfig;
  readonly etag: string;
}

/** The answer to a conditional write. */
export type WriteAnswer =
  | { readonly ok: true; readonly etag: string }
  | { readonly ok: false; readonly conflict: true };

/** One place configs are read from and written to. */
export interface ConfigEndpoint {
  /** The config, or `null` when there is none of that name. */
  read(name: string): Promise<ReadConfig | null>;
  /** Stores `config` only over `etag` (or only when the name is new, for `null`). */
  write(
    name: string,
    config: LinkConfig,
    etag: string | null,
  ): Promise<WriteAnswer>;
  close(): Promise<void>;
}

/** Configs on a running server, over REST. */
export function restEndpoint(target: RestTarget): ConfigEndpoint {
  const call = (path: string, init: RequestInit): Promise<Response> =>
    callServer(target, path, init);
  const path = (name: string): string => `/configs/${encodeURIComponent(name)}`;
  return {
    async read(name) {
      const response = await call(path(name), {});
      if (response.status === 404) return null;
      if (!response.ok) throw await failure(response, `reading "${name}"`);
      const body = (await response.json()) as { config: LinkConfig };
      return { config: body.config, etag: response.headers.get('etag') ?? '' };
    },
    async write(name, config, etag) {
      const response = await call(path(name), {
        method: 'PUT',
        headers: {
          'Content-Type': 'application/json',
          ...(etag === null ? { 'If-None-Match': '*' } : { 'If-Match': etag }),
        },
        body: JSON.stringify(config),
      });
      if (response.status === 412) return { ok: false, conflict: true };
      if (!response.ok) throw await failure(response, `writing "${name}"`);
      return { ok: true, etag: response.headers.get('etag') ?? '' };
    },
    close: () => Promise.resolve(),
  };
}
