import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import type { AppRouter } from '../src/index.js';
import {
  originsScene,
  OTHER,
  PUBLISHED,
  SITE_A,
  SITE_B,
} from './published-scene.js';
import type { TestApp, TestAppOptions } from './test-app.js';

/**
 * The published view of a request with a given `Origin` is one rule for both transports
 * (docs/publishing.md#origins): every row of one table is asked over REST (`/published`) and over
 * `/trpc` (`published.*`, with `@trpc/client`), from a page the record names, one it does not, and no
 * page at all; both must answer alike, and as the rule says.
 */

/** The test app's own origin (`createTestApp` asks `http://localhost`): not another site. */
const OWN = 'http://localhost';
const ADMIN = 'Bearer admin';

const scene = (options: TestAppOptions): Promise<TestApp> =>
  originsScene(options, { Authorization: ADMIN });

/** What a request got: its status and its JSON body (an error as REST words it, `{ error }`). */
interface Answer {
  readonly status: number;
  readonly body: unknown;
}

type Client = ReturnType<typeof createTRPCClient<AppRouter>>;

/** A call as the page makes it: its headers over REST, its client over tRPC. */
interface Caller {
  readonly headers: Record<string, string>;
  readonly client: Client;
}

/** One row: the same read over both transports, and what the rule says it shows of `visible`. */
interface Row {
  readonly label: string;
  rest(t: TestApp, headers: Record<string, string>): Promise<Answer>;
  trpc(client: Client): Promise<unknown>;
  /** What the answer shows: compared with {@link expected}. */
  seen(answer: Answer): unknown;
  expected(visible: ReadonlySet<string>): unknown;
}

const restAnswer = async (response: Response): Promise<Answer> => ({
  status: response.status,
  body: JSON.parse(await response.text()) as unknown,
});

const get = (name: string): Row => ({
  label: `get ${name}`,
  rest: async (t, headers) =>
    restAnswer(
      await t.request(`/published/configs/${encodeURIComponent(name)}`, {
        headers,
      }),
    ),
  trpc: (client) => client.published.get.query({ name }),
  seen: (answer) => answer.status,
  expected: (visible) => (visible.has(name) ? 200 : 404),
});

const namesOf = (answer: Answer): unknown =>
  answer.status === 200
    ? (answer.body as { results: { configName: string }[] }).results.map(
        (r) => r.configName,
      )
    : answer.status;

const idsOf = (answer: Answer): unknown =>
  answer.status === 200
    ? (answer.body as { results: { id: string }[] }).results
        .map((r) => r.id)
        .sort()
    : answer.status;

/** `/query` of one config (`configName`) or of several merged (`configs`). */
const query = (configName: string | string[]): Row => {
  const named = typeof configName === 'string' ? [configName] : configName;
  const asked =
    typeof configName === 'string' ? { configName } : { configs: configName };
  return {
    label: `query ${named.join('+')}`,
    rest: async (t, headers) =>
      restAnswer(
        await t.post(
          '/published/query',
          { ...asked, expression: '.bridge' },
          headers,
        ),
      ),
    trpc: (client) =>
      client.published.query.mutate({ ...asked, expression: '.bridge' }),
    seen: idsOf,
    expected: (visible) => {
      const shown = PUBLISHED.filter(
        ([name]) => named.includes(name) && visible.has(name),
      );
      return shown.length === 0 ? 404 : shown.map(([, m]) => `${m}1`).sort();
    },
  };
};

const ROWS: readonly Row[] = [
  ...['a/menu', 'b/menu', 'any/menu', 'never/menu'].map(get),
  {
    label: 'list',
    rest: async (t, headers) =>
      restAnswer(await t.request('/published/configs', { headers })),
    trpc: (client) => client.published.list.query(),
    seen: (answer) => answer.body,
    expected: (visible) => [...visible].sort(),
  },
  {
    label: 'search',
    rest: async (t, headers) =>
      restAnswer(await t.request('/published/search?tag=bridge', { headers })),
    trpc: (client) => client.published.search.query({ tag: 'bridge' }),
    seen: namesOf,
    expected: (visible) => [...visible].sort(),
  },
  query('a/menu'),
  query('b/menu'),
  query(['any/menu', 'a/menu', 'b/menu']),
  {
    label: 'cherry-pick a/menu',
    rest: async (t, headers) =>
      restAnswer(
        await t.post(
          '/published/cherry-pick',
          { source: 'a/menu', expression: '.nyc' },
          headers,
        ),
      ),
    trpc: (client) =>
      client.published.cherryPick.mutate({
        source: 'a/menu',
        expression: '.nyc',
      }),
    seen: (answer) => answer.status,
    expected: (visible) => (visible.has('a/menu') ? 200 : 404),
  },
];

/** What a tRPC call got, as REST would say it: the value (200) or the error's status and words. */
async function trpcAnswer(call: () => Promise<unknown>): Promise<Answer> {
  try {
    return { status: 200, body: await call() };
  } catch (error) {
    if (!(error instanceof TRPCClientError)) throw error;
    const data = (error as TRPCClientError<AppRouter>).data;
    return { status: data?.httpStatus ?? 0, body: { error: error.message } };
  }
}

/** A page of `origin` (unset: no `Origin`) with `authorization` (unset: none), on both transports. */
function caller(
  t: TestApp,
  origin: string | undefined,
  authorization: string | undefined,
): Caller {
  const headers: Record<string, string> = {
    ...(origin === undefined ? {} : { Origin: origin }),
    ...(authorization === undefined ? {} : { Authorization: authorization }),
  };
  const client = createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${OWN}/trpc`,
        headers,
        fetch: async (url, init) =>
          t.app.request(String(url), init as RequestInit),
      }),
    ],
  });
  return { headers, client };
}

/** The published names a page of `origin` may read by the records' origins (unset: every one). */
function originVisible(origin: string | undefined): Set<string> {
  return new Set(
    PUBLISHED.filter(
      ([, , origins]) =>
        origin === undefined ||
        origin === OWN ||
        origins === null ||
        origins.includes(origin),
    ).map(([name]) => name),
  );
}

const ORIGINS = [SITE_A, SITE_B, OTHER, OWN, undefined] as const;

/** Asks every row from every origin as `authorization`; `keyReads` is what the caller's key may read. */
async function compareTransports(
  t: TestApp,
  authorization: string | undefined,
  keyReads: (name: string) => boolean,
): Promise<void> {
  for (const origin of ORIGINS) {
    const page = caller(t, origin, authorization);
    const visible = new Set([...originVisible(origin)].filter(keyReads));
    for (const row of ROWS) {
      const where = `${row.label} from ${origin ?? 'no Origin'} as ${authorization ?? 'anonymous'}`;
      const rest = await row.rest(t, page.headers);
      const trpc = await trpcAnswer(() => row.trpc(page.client));
      expect(trpc, where).toEqual(rest);
      expect(row.seen(rest), where).toEqual(row.expected(visible));
    }
  }
}

describe('/trpc published.* follow the publish records’ origins as /published does', () => {
  it('an open server: a page reads only what its origin may, a request without Origin everything', async () => {
    const t = await scene({});
    await compareTransports(t, undefined, () => true);
  });

  it('a closed server (PUBLISHED_READ=key): the key’s rights first, then the origin', async () => {
    const t = await scene({
      auth: { apiToken: 'admin', anonymousRead: ['b/*'] },
      publishedRead: 'key',
    });
    await compareTransports(t, undefined, (name) => name.startsWith('b/'));
    await compareTransports(t, ADMIN, () => true);
  });
});
