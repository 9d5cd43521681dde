import { router } from '../trpc.js';
import { configsOperations, configsRouter } from './configs.js';
import { expressionsOperations, expressionsRouter } from './expressions.js';
import { searchOperations, searchRouter } from './search.js';

/** Every procedure of the service; the REST routes and `/trpc` both serve this one definition. */
export const appRouter = router({
  configs: configsRouter,
  search: searchRouter,
  expressions: expressionsRouter,
});

/** The router's type, for `@trpc/client` (see `createLinkConfigClient` in the web-client package). */
export type AppRouter = typeof appRouter;

/**
 * The operations behind the procedures, by procedure path: the REST route table is built from these
 * (`http/route-table.ts`), so a route is declared once, in its operation's `meta`.
 */
export const OPERATIONS = {
  'configs.list': configsOperations.list,
  'configs.get': configsOperations.get,
  'configs.put': configsOperations.put,
  'configs.remove': configsOperations.remove,
  'search.links': searchOperations.links,
  'expressions.cherryPick': expressionsOperations.cherryPick,
  'expressions.query': expressionsOperations.query,
  'expressions.check': expressionsOperations.check,
} as const;
