/**
 * The access matrix's cases: the callers, the stored configs with markers, and one request per route of
 * the route table (REST) and per procedure (tRPC) with its kind of access. The list of routes is the
 * route table itself: a route without an entry here fails the matrix until it is given one.
 */
import type { CreateKeyOutput } from '@linkconfig/shared';
import type { RestRoute } from '../src/http/routes/route-table.js';
import { newKeyMaterial, secretHash } from '../src/keys/key-secret.js';
import { publicKey } from '../src/keys/key-service.js';
import type { StoredKey } from '../src/storage/key-repository.js';
import type { TestApp } from './test-app.js';

/** A config every key in the matrix that may read `site-a/*` reads; its content carries a marker. */
export const T = 'site-a/menu';
export const T_MARK = 'TMARK7f3a';
/** A config only the admin key may read: neither its name nor its content may reach anyone else. */
export const S = 'secret/SMARKNAME';
export const S_MARK = 'SMARK91c2';
/** A config anyone may read (ANONYMOUS_READ is `public/*`), written last in event runs as a sentinel. */
export const P = 'public/page';

export const configWith = (mark: string) => ({
  allLinks: {
    tlink: {
      label: `${mark} link`,
      url: `https://${mark.toLowerCase()}.example/`,
      tags: [mark],
    },
  },
});

export const CALLERS = [
  'admin',
  'none',
  'readOther',
  'writeOther',
  'read',
  'write',
  'expired',
  'revoked',
] as const;
export type Caller = (typeof CALLERS)[number];

/** What may each caller do: the keys are made by {@link makeKeys}. */
export const mayReadT = (caller: Caller): boolean =>
  caller === 'read' || caller === 'write' || caller === 'admin';

/**
 * A key that expired long ago, stored as storage holds one (a key made now must expire ahead of now).
 */
export async function storeExpired(
  t: TestApp,
  scope: 'read' | 'write' | 'admin',
  configs: string[],
): Promise<CreateKeyOutput> {
  const { id, secret } = newKeyMaterial();
  const key: StoredKey = {
    id,
    label: `${scope} ${configs.join(',')}`,
    scope,
    configs,
    secretHash: secretHash(secret),
    expiresAt: '2020-01-01T00:00:00.000Z',
    createdAt: '2019-01-01T00:00:00.000Z',
    lastUsedAt: null,
    revokedAt: null,
  };
  await t.repository.keys.insert(key);
  return { ...publicKey(key), secret };
}

/** Creates the keys of the matrix on the app's database; `none` sends no header. */
export async function makeKeys(
  t: TestApp,
): Promise<Record<Caller, Record<string, string>>> {
  const make = async (
    scope: 'read' | 'write' | 'admin',
    configs: string[],
  ): Promise<CreateKeyOutput> =>
    t.services.keys.create({
      label: `${scope} ${configs.join(',')}`,
      scope,
      configs,
    });
  const revoked = await make('write', ['*']);
  await t.services.keys.revoke(revoked.id);
  const keys = {
    admin: await make('admin', ['*']),
    readOther: await make('read', ['other/*']),
    writeOther: await make('write', ['other/*']),
    read: await make('read', ['site-a/*']),
    write: await make('write', ['site-a/*']),
    expired: await storeExpired(t, 'write', ['*']),
    revoked,
  };
  const header = (key: CreateKeyOutput) => ({
    Authorization: `Bearer ${key.secret}`,
  });
  return {
    none: {},
    admin: header(keys.admin),
    readOther: header(keys.readOther),
    writeOther: header(keys.writeOther),
    read: header(keys.read),
    write: header(keys.write),
    expired: header(keys.expired),
    revoked: header(keys.revoked),
  };
}

/** How a route uses access: it lists (filters), reads one named config, writes one, or manages keys. */
export type Kind = 'list' | 'named-read' | 'write' | 'publish' | 'admin';

/** A request, REST and tRPC, for one operation. */
export interface RouteCase {
  readonly kind: Kind;
  /** The REST request: path and init. */
  readonly rest: (ctx: CaseContext) => { path: string; init: RequestInit };
  /** The tRPC input (`undefined`: none). */
  readonly input: (ctx: CaseContext) => unknown;
  /**
   * What a caller allowed through gets when it is not the route's own success (REST) or 200 (tRPC): a
   * check on demand answers 409 on the matrix's servers, where link checking is off.
   */
  readonly allowed?: { readonly rest: number; readonly trpc: number };
}

/** What a request may need: a fresh key id to revoke, a fresh hook id to remove. */
export interface CaseContext {
  readonly throwawayKeyId: string;
  readonly throwawayHookId: string;
}

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});
const enc = encodeURIComponent;

/** One case per route id of the route table. */
export const ROUTE_CASES: Readonly<Record<string, RouteCase>> = {
  'configs.list': {
    kind: 'list',
    rest: () => ({ path: '/configs', init: {} }),
    input: () => undefined,
  },
  'configs.get': {
    kind: 'named-read',
    rest: () => ({ path: `/configs/${enc(T)}`, init: {} }),
    input: () => ({ name: T }),
  },
  'configs.put': {
    kind: 'write',
    rest: () => ({
      path: `/configs/${enc(T)}`,
      init: json('PUT', configWith(T_MARK)),
    }),
    input: () => ({ name: T, config: configWith(T_MARK) }),
  },
  'configs.patch': {
    kind: 'write',
    rest: () => ({
      path: `/configs/${enc(T)}`,
      init: json('PATCH', {
        allLinks: { tlink: { label: `${T_MARK} patched` } },
      }),
    }),
    input: () => ({
      name: T,
      patch: { allLinks: { tlink: { label: `${T_MARK} patched` } } },
    }),
  },
  'configs.remove': {
    kind: 'write',
    rest: () => ({
      path: `/configs/${enc('site-a/scratch')}`,
      init: { method: 'DELETE' },
    }),
    input: () => ({ name: 'site-a/scratch' }),
  },
  'search.links': {
    kind: 'list',
    rest: () => ({ path: '/search?q=mark', init: {} }),
    input: () => ({ q: 'mark' }),
  },
  'expressions.cherryPick': {
    kind: 'named-read',
    rest: () => ({
      path: '/cherry-pick',
      init: json('POST', { source: T, expression: 'tlink' }),
    }),
    input: () => ({ source: T, expression: 'tlink' }),
  },
  'expressions.query': {
    kind: 'named-read',
    rest: () => ({
      path: '/query',
      init: json('POST', { configName: T, expression: 'tlink' }),
    }),
    input: () => ({ configName: T, expression: 'tlink' }),
  },
  'expressions.check': {
    kind: 'named-read',
    rest: () => ({
      path: '/expressions/check',
      init: json('POST', { configName: T, expression: 'tlink' }),
    }),
    input: () => ({ configName: T, expression: 'tlink' }),
  },
  'history.list': {
    kind: 'named-read',
    rest: () => ({ path: `/configs/${enc(T)}/history`, init: {} }),
    input: () => ({ name: T }),
  },
  'history.revision': {
    kind: 'named-read',
    rest: () => ({ path: `/configs/${enc(T)}/revisions/1`, init: {} }),
    input: () => ({ name: T, rev: 1 }),
  },
  'history.diff': {
    kind: 'named-read',
    rest: () => ({ path: `/configs/${enc(T)}/diff?from=1`, init: {} }),
    input: () => ({ name: T, from: 1 }),
  },
  'history.restore': {
    kind: 'write',
    rest: () => ({
      path: `/configs/${enc(T)}/restore`,
      init: json('POST', { rev: 1 }),
    }),
    input: () => ({ name: T, rev: 1 }),
  },
  // The audit trail names every config that changed: filtered per caller like the list of names.
  'history.audit': {
    kind: 'list',
    rest: () => ({ path: '/history', init: {} }),
    input: () => ({}),
  },
  'links.health': {
    kind: 'named-read',
    rest: () => ({ path: `/configs/${enc(T)}/links/health`, init: {} }),
    input: () => ({ name: T }),
  },
  // Lists the links of every readable config whose URL is broken (the matrix stores T's and S's as
  // broken): filtered per caller like the list of names.
  'links.across': {
    kind: 'list',
    rest: () => ({ path: '/links/health?state=broken', init: {} }),
    input: () => ({ state: 'broken' }),
  },
  'links.check': {
    kind: 'write',
    rest: () => ({
      path: `/configs/${enc(T)}/links/check`,
      init: { method: 'POST' },
    }),
    input: () => ({ name: T }),
    allowed: { rest: 409, trpc: 409 },
  },
  'publish.status': {
    kind: 'named-read',
    rest: () => ({ path: `/configs/${enc(T)}/publish`, init: {} }),
    input: () => ({ name: T }),
  },
  'publish.publish': {
    kind: 'publish',
    rest: () => ({
      path: `/configs/${enc(T)}/publish`,
      init: json('POST', {}),
    }),
    input: () => ({ name: T }),
  },
  // Unpublishes a name never published (200, `rev: null`): T stays published for the routes below.
  'publish.unpublish': {
    kind: 'publish',
    rest: () => ({
      path: `/configs/${enc('site-a/scratch')}/publish`,
      init: { method: 'DELETE' },
    }),
    input: () => ({ name: 'site-a/scratch' }),
  },
  // The published view (T and S are published; the matrix runs with PUBLISHED_READ=key, where it
  // follows the caller's key exactly like the drafts' routes).
  'published.list': {
    kind: 'list',
    rest: () => ({ path: '/published/configs', init: {} }),
    input: () => undefined,
  },
  'published.get': {
    kind: 'named-read',
    rest: () => ({ path: `/published/configs/${enc(T)}`, init: {} }),
    input: () => ({ name: T }),
  },
  'published.search': {
    kind: 'list',
    rest: () => ({ path: '/published/search?q=mark', init: {} }),
    input: () => ({ q: 'mark' }),
  },
  'published.query': {
    kind: 'named-read',
    rest: () => ({
      path: '/published/query',
      init: json('POST', { configName: T, expression: 'tlink' }),
    }),
    input: () => ({ configName: T, expression: 'tlink' }),
  },
  'published.cherryPick': {
    kind: 'named-read',
    rest: () => ({
      path: '/published/cherry-pick',
      init: json('POST', { source: T, expression: 'tlink' }),
    }),
    input: () => ({ source: T, expression: 'tlink' }),
  },
  // A dry run: the preview names the marked config's tag, nothing is stored.
  'tags.rename': {
    kind: 'write',
    rest: () => ({
      path: `/configs/${enc(T)}/tags/rename`,
      init: json('POST', { from: T_MARK, to: 'renamed', dryRun: true }),
    }),
    input: () => ({ name: T, from: T_MARK, to: 'renamed', dryRun: true }),
  },
  'keys.access': {
    kind: 'list',
    rest: () => ({ path: '/access', init: {} }),
    input: () => undefined,
  },
  'keys.create': {
    kind: 'admin',
    rest: () => ({
      path: '/keys',
      init: json('POST', { label: 'm', scope: 'read', configs: ['x'] }),
    }),
    input: () => ({ label: 'm', scope: 'read', configs: ['x'] }),
  },
  'keys.list': {
    kind: 'admin',
    rest: () => ({ path: '/keys', init: {} }),
    input: () => undefined,
  },
  'keys.revoke': {
    kind: 'admin',
    rest: (ctx) => ({
      path: `/keys/${ctx.throwawayKeyId}`,
      init: { method: 'DELETE' },
    }),
    input: (ctx) => ({ id: ctx.throwawayKeyId }),
  },
  'hooks.create': {
    kind: 'admin',
    rest: () => ({
      path: '/hooks',
      init: json('POST', {
        url: 'https://receiver.example/hook',
        events: ['change'],
        configs: ['x'],
      }),
    }),
    input: () => ({
      url: 'https://receiver.example/hook',
      events: ['change'],
      configs: ['x'],
    }),
  },
  'hooks.list': {
    kind: 'admin',
    rest: () => ({ path: '/hooks', init: {} }),
    input: () => undefined,
  },
  'hooks.remove': {
    kind: 'admin',
    rest: (ctx) => ({
      path: `/hooks/${ctx.throwawayHookId}`,
      init: { method: 'DELETE' },
    }),
    input: (ctx) => ({ id: ctx.throwawayHookId }),
  },
  'hooks.log': {
    kind: 'admin',
    rest: (ctx) => ({ path: `/hooks/${ctx.throwawayHookId}/log`, init: {} }),
    input: (ctx) => ({ id: ctx.throwawayHookId }),
  },
};

/** The status a caller gets from a route: REST (`success` is the route's own) or tRPC (`success` 200). */
export function expectedStatus(
  kind: Kind,
  caller: Caller,
  success: number,
): number {
  if (caller === 'expired' || caller === 'revoked') return 401;
  switch (kind) {
    case 'list':
      return success;
    case 'named-read':
      // A name the caller may not read answers as a missing one.
      return mayReadT(caller) ? success : 404;
    case 'write':
      if (caller === 'none') return 401;
      return caller === 'write' || caller === 'admin' ? success : 403;
    case 'publish':
    case 'admin':
      // No key of the matrix has publish scope: only the admin's covers 'publish'.
      if (caller === 'none') return 401;
      return caller === 'admin' ? success : 403;
  }
}

/** The bytes an answer or event for `caller` must never hold. */
export function forbiddenBytes(caller: Caller): string[] {
  // The marks in lower case too: they are the host names of the configs' URLs.
  const hidden =
    caller === 'admin' ? [] : [S, S_MARK, 'SMARK', S_MARK.toLowerCase()];
  return mayReadT(caller)
    ? hidden
    : [...hidden, T_MARK, 'TMARK', T_MARK.toLowerCase()];
}

/** The route ids of the route table (REST) and of its procedures (tRPC). */
export const routeIds = (routes: readonly RestRoute[]): string[] =>
  routes.map((r) => r.id).sort();
