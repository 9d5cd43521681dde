import { router } from '../trpc.js';
import { configsOperations, configsRouter } from './configs.js';
import { expressionsOperations, expressionsRouter } from './expressions.js';
import { hooksOperations, hooksRouter } from './hooks.js';
import { keysOperations, keysRouter } from './keys.js';
import { historyOperations, historyRouter } from './history.js';
import { linksOperations, linksRouter } from './links.js';
import {
  publishedOperations,
  publishOperations,
  publishRouter,
  publishedRouter,
} from './publish.js';
import { searchOperations, searchRouter } from './search.js';
import { tagsOperations, tagsRouter } from './tags.js';

/**
 * The operations behind the procedures, by router: the tRPC routers are built from these records
 * (`proceduresOf`) and so is the REST route table (`http/routes/route-table.ts`), so an operation is named
 * once and its route is declared once, in its `meta`.
 */
export const OPERATIONS = {
  configs: configsOperations,
  search: searchOperations,
  expressions: expressionsOperations,
  keys: keysOperations,
  history: historyOperations,
  links: linksOperations,
  hooks: hooksOperations,
  publish: publishOperations,
  published: publishedOperations,
  tags: tagsOperations,
} as const;

/** Every procedure of the service; the REST routes and `/trpc` both serve this one definition. */
export const appRouter = router({
  configs: configsRouter,
  search: searchRouter,
  expressions: expressionsRouter,
  keys: keysRouter,
  history: historyRouter,
  links: linksRouter,
  hooks: hooksRouter,
  publish: publishRouter,
  published: publishedRouter,
  tags: tagsRouter,
});

/** The router's type, for `@trpc/client` (see `createLinkConfigClient` in the web-client package). */
export type AppRouter = typeof appRouter;
