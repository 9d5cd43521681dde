import { SearchInputSchema, SearchOutputSchema } from '@linkconfig/shared';
import { SCAN_BUSY_RESPONSE } from '../services/scan-permits.js';
import { operation, proceduresOf, router } from '../trpc.js';

/** `GET /search`: links across configs. */
export const searchOperations = {
  links: operation({
    access: 'read',
    meta: {
      openapi: {
        method: 'GET',
        path: '/search',
        tags: ['search'],
        summary: 'Links across configs by tag, substring or regular expression',
        description:
          'Configs in name order, links in catalog order; every given criterion must hold. At least one of `tag`, `q`, `regex`.',
        errorResponses: { 503: SCAN_BUSY_RESPONSE },
      },
      rest: { expensive: true, reusable: true },
    },
    input: SearchInputSchema,
    output: SearchOutputSchema,
    run: (ctx, input, { signal }) =>
      ctx.services.search.searchOutcome(input, {
        state: ctx.stateToken,
        readable: ctx.auth,
        signal,
      }),
  }),
};

export const searchRouter = router(proceduresOf(searchOperations));
