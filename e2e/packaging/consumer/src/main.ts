/**
 * A stranger's project, as the packaging test builds it from the packed tarballs: browser code that uses
 * the remote store, the hybrid store and the typed tRPC client, with `@linkconfig/shared` on its own. It
 * must compile with the libraries' declarations checked (`skipLibCheck: false`) and without
 * `@linkconfig/server` installed; the test then runs {@link run} in Node against a real server.
 */
import { sanitizeUrl, validateLinkConfig } from '@linkconfig/shared';
import {
  RemoteStoreError,
  TRPCClientError,
  createHybridStore,
  createIndexedDBStore,
  createLinkConfigClient,
  createRemoteStore,
} from '@linkconfig/web-client';
import type { AppRouter, LinkConfig } from '@linkconfig/web-client';

/** `true` only for `any`: the typed client must never silently become `any` again. */
type IsAny<T> = 0 extends 1 & T ? true : false;

/** What {@link run} saw, for the test to compare. */
export interface RunReport {
  names: string[];
  remoteUrl: string;
  clientUrl: string;
  queryIds: string[];
  hybridStored: boolean;
  hybridPending: number;
  rejected: { name: string; status: number; configName: string };
  sanitized: string;
  /** The HTTP status a typed call of a missing config rejected with (a `TRPCClientError`). */
  clientMissing: number;
}

const CONFIG: LinkConfig = {
  allLinks: {
    docs: { url: 'https://example.com/docs', tags: ['pkg', 'docs'] },
    home: { url: 'https://example.com/', tags: ['pkg'] },
  },
};

/** Exercises every entry point against the server at `baseUrl`. */
export async function run(baseUrl: string): Promise<RunReport> {
  const checked = validateLinkConfig(CONFIG);
  if (!checked.ok) throw new Error(`the config is invalid: ${checked.error}`);

  const remote = createRemoteStore({ baseUrl });
  await remote.save('packaged', CONFIG);
  const loaded = await remote.loadEntry('packaged');

  // The token as a function, read for each request (none here: the server is open).
  const client = createLinkConfigClient({ baseUrl, token: () => undefined });
  const names: string[] = await client.configs.list.query();
  const entry = await client.configs.get.query({ name: 'packaged' });
  // Inferred outputs are precise: the entry is not `any` (this line does not compile if it is; the
  // constant is read in the report so that it stays), and its links have string URLs.
  const entryIsAny: IsAny<typeof entry> = false;
  const clientUrl: string = entry.config.allLinks['docs']?.url ?? '';
  const { results } = await client.expressions.query.mutate({
    expression: '.pkg',
    configName: 'packaged',
  });
  const queryIds: string[] = results.map((link) => link.id);

  const hybrid = createHybridStore({
    local: await createIndexedDBStore({ dbName: 'packaging-consumer' }),
    remote,
  });
  await hybrid.save('offline-first', CONFIG);
  await hybrid.flush({ timeoutMs: 10_000 });
  const hybridPending = hybrid.getStatus().pending;
  hybrid.close();
  const hybridStored = (await remote.load('offline-first')) !== null;

  let rejected = { name: '', status: 0, configName: '' };
  try {
    await remote.save('broken', { allLinks: { x: {} } } as never);
  } catch (error) {
    if (!(error instanceof RemoteStoreError)) throw error;
    rejected = {
      name: error.name,
      status: error.status,
      configName: error.configName,
    };
  }

  let clientMissing = 0;
  try {
    await client.configs.get.query({ name: 'no-such-config' });
  } catch (error) {
    if (!(error instanceof TRPCClientError)) throw error;
    clientMissing = (error as TRPCClientError<AppRouter>).data?.httpStatus ?? 0;
  }

  return {
    clientMissing,
    names: entryIsAny ? [] : names,
    remoteUrl: loaded?.config.allLinks['docs']?.url ?? '',
    clientUrl,
    queryIds,
    hybridStored,
    hybridPending,
    rejected,
    sanitized: sanitizeUrl('javascript:alert(1)'),
  };
}
