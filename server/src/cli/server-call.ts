/**
 * One REST request of a command to a running server (`--server`, `--key`): the bearer key sent, an
 * unreachable server and a refused request said in words for the person at the terminal.
 */
import { isPlainObject } from '@linkconfig/shared';

/** How to reach a running server. */
export interface RestTarget {
  readonly server: string;
  readonly key?: string | undefined;
}

/** The target of `--server`/`--key`, else `LINKCONFIG_SERVER`/`LINKCONFIG_KEY`, else the local default. */
export function restTargetOf(
  options: { readonly server?: string; readonly key?: string },
  env: Readonly<Record<string, string | undefined>>,
): RestTarget {
  return {
    server:
      options.server ?? env['LINKCONFIG_SERVER'] ?? 'http://localhost:3000',
    key: options.key ?? env['LINKCONFIG_KEY'],
  };
}

/** A failed request, in words for the person at the terminal. */
export async function failure(
  response: Response,
  what: string,
): Promise<Error> {
  let reason = response.statusText;
  try {
    const body: unknown = await response.json();
    if (isPlainObject(body) && typeof body['error'] === 'string') {
      reason = body['error'];
    }
  } catch {
    // Not a JSON error body: the status text says what there is to say.
  }
  return new Error(
    `${what}: the server answered ${response.status} (${reason})`,
  );
}

/** Sends `init` to `path` of the target (with its key); an unreachable server is an error that says so. */
export async function callServer(
  target: RestTarget,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  const base = target.server.replace(/\/+$/, '');
  const headers: Record<string, string> = {
    ...(init.headers as Record<string, string> | undefined),
    ...(target.key === undefined
      ? {}
      : { Authorization: `Bearer ${target.key}` }),
  };
  try {
    return await fetch(`${base}${path}`, { ...init, headers });
  } catch (error) {
    const cause =
      error instanceof Error && error.cause instanceof Error
        ? error.cause.message
        : String(error);
    throw new Error(
      `cannot reach the server at ${base} (${cause}); is it running? (--server <url>)`,
      { cause: error },
    );
  }
}

/** A JSON request whose answer must be 2xx: its body, else an error naming `what` and the reason. */
export async function serverJson<T>(
  target: RestTarget,
  request: {
    path: string;
    method: string;
    body?: unknown;
    headers?: Record<string, string>;
  },
  what: string,
): Promise<T> {
  const response = await callServer(target, request.path, {
    method: request.method,
    headers: {
      ...request.headers,
      ...(request.body === undefined
        ? {}
        : { 'Content-Type': 'application/json' }),
    },
    ...(request.body === undefined
      ? {}
      : { body: JSON.stringify(request.body) }),
  });
  if (!response.ok) throw await failure(response, what);
  return (await response.json()) as T;
}
