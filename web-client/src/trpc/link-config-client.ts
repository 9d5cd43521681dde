import {
  createTRPCClient,
  httpBatchLink,
  httpSubscriptionLink,
  splitLink,
} from '@trpc/client';
import type { TRPCClient } from '@trpc/client';
import type { AppRouter } from '@linkconfig/server';
import { FetchEventSource } from './fetch-event-source.js';

/** Options of {@link createLinkConfigClient}. */
export interface LinkConfigClientOptions {
  /** The server's base URL; tRPC is served under `/trpc`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Extra headers sent on every request. */
  headers?: Record<string, string>;
}

/** The typed client: the server's procedures with their inferred inputs and outputs. */
export type LinkConfigClient = TRPCClient<AppRouter>;

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
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined)
    headers['Authorization'] = `Bearer ${options.token}`;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/trpc`;
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({
          url,
          EventSource: FetchEventSource,
          eventSourceOptions: { headers },
        }),
        false: httpBatchLink({ url, headers }),
      }),
    ],
  });
}
