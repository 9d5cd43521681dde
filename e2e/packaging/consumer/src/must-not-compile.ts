/**
 * Calls the typed client and the stores get wrong. Each line after `@ts-expect-error TSnnnn` must be a
 * type error with that code: the packaging test compiles this file as it is (every directive must be
 * used) and once more without the directives (each error must be there, with that code, on that line).
 */
import {
  createLinkConfigClient,
  createRemoteStore,
} from '@linkconfig/web-client';

const client = createLinkConfigClient({ baseUrl: 'http://localhost:3000' });
const store = createRemoteStore({ baseUrl: 'http://localhost:3000' });

/** Never called: only compiled. */
export async function mistakes(): Promise<void> {
  // @ts-expect-error TS2339 -- there is no procedure `configs.fetch`
  await client.configs.fetch.query({ name: 'demo' });
  // @ts-expect-error TS2322 -- a config name is a string
  await client.configs.get.query({ name: 42 });
  // @ts-expect-error TS2339 -- a query is called with `mutate`, not `query`
  await client.expressions.query.query({ expression: '.a' });
  const entry = await client.configs.get.query({ name: 'demo' });
  // @ts-expect-error TS2339 -- the entry has `config` and `meta`, no `links`
  console.log(entry.links);
  // @ts-expect-error TS2322 -- a revision is a number, not any text
  await client.history.revision.query({ name: 'demo', rev: 'banana' });
  // @ts-expect-error TS2345 -- a store saves configs, not strings
  await store.save('demo', 'not a config');
}
