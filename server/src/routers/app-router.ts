import { router } from '../trpc.js';
import { configsRouter } from './configs.js';
import { expressionsRouter } from './expressions.js';
import { searchRouter } from './search.js';

/** Every procedure of the service; the REST routes and `/trpc` both serve this one definition. */
export const appRouter = router({
  configs: configsRouter,
  search: searchRouter,
  expressions: expressionsRouter,
});

/** The router's type, for `@trpc/client` (see `createLinkConfigClient` in the web-client package). */
export type AppRouter = typeof appRouter;
