import {
  createTRPCClient,
  httpBatchLink,
  httpSubscriptionLink,
  splitLink,
} from '@trpc/client';
import type { TRPCClient } from '@trpc/client';
import type { AppRouter } from '@linkconfig/server';
import { LIMITS } from '@linkconfig/shared';
import { bearerHeader } from '../remote/http-call.js';
import type { TokenSource } from '../remote/http-call.js';
import { FetchEventSource } from './fetch-event-source.js';

/** Options of {@link createLinkConfigClient}. */
export interface LinkConfigClientOptions {
  /** The server's base URL; tRPC is served under `/trpc`. */
  baseUrl: string;
  /**
   * Sent as `Authorization: Bearer <token>`: a string, or a function called before every request (and
   * every subscription it opens) that returns the current token, as the remote store takes it.
   */
  token?: TokenSource;
  /** Extra headers sent on every request. */
  headers?: Record<string, string>;
}

/** The typed client: the server's procedures with their inferred inputs and outputs. */
export type LinkConfigClient = TRPCClient<AppRouter>;

/** The server's router type, for custom tRPC links or clients (`createTRPCClient<AppRouter>`). */
export type { AppRouter };

/**
 * Creates a typed tRPC client for the server's procedures (the same ones the REST routes call).
 * Queries and mutations go out in batches; subscriptions (`configs.changes`) stream over Server-Sent
 * Events, read with `fetch` so that they carry the token and headers too.
 *
 * @example
 * const client = createLinkConfigClient({ baseUrl: 'http://localhost:3000' });
 * const names = await client.configs.list.query();
 */
export function createLinkConfigClient(
  options: LinkConfigClientOptions,
): LinkConfigClient {
  // Read per request (and per subscription): the app may change the token at run time.
  const headers = async (): Promise<Record<string, string>> => ({
    ...options.headers,
    ...(await bearerHeader(options.token)),
  });
  const url = `${options.baseUrl.replace(/\/+$/, '')}/trpc`;
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({
          url,
          EventSource: FetchEventSource,
          eventSourceOptions: async () => ({ headers: await headers() }),
        }),
        false: httpBatchLink({ url, headers, maxItems: LIMITS.trpcBatchMax }),
      }),
    ],
  });
}
