import { SearchInputSchema, SearchOutputSchema } from '@linkconfig/shared';
import { readProcedure, router } from '../trpc.js';

/** `GET /search`: links across configs. */
export const searchRouter = router({
  links: readProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/search',
        tags: ['search'],
        summary: 'Links across configs by tag, substring or regular expression',
      },
    })
    .input(SearchInputSchema)
    .output(SearchOutputSchema)
    .query(({ ctx, input }) => ctx.services.search.search(input)),
});
