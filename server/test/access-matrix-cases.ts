/**
 * The access matrix's cases: one request per route of the route table (REST) and per procedure (tRPC)
 * with its kind of access, and the status each caller gets. The list of routes is the route table
 * itself: a route without an entry here fails the matrix until it is given one. The callers and the
 * configs they may see are in access-matrix-callers.ts.
 */
import type { RestRoute } from '../src/http/routes/route-table.js';
import { T, T_MARK, configWith, mayReadT } from './access-matrix-callers.js';
import type { Caller } from './access-matrix-callers.js';

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

/** The route ids of the route table (REST) and of its procedures (tRPC). */
export const routeIds = (routes: readonly RestRoute[]): string[] =>
  routes.map((r) => r.id).sort();
