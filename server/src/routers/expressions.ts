import {
  CherryPickInputSchema,
  CherryPickOutputSchema,
  QueryInputSchema,
  QueryOutputSchema,
} from '@linkconfig/shared';
import { readProcedure, router } from '../trpc.js';

const tags = ['expressions'];

/** Server-side resolution of link expressions: `/cherry-pick` and `/query`. */
export const expressionsRouter = router({
  cherryPick: readProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/cherry-pick',
        tags,
        summary: 'Resolve an expression against one config; answer as allLinks',
      },
    })
    .input(CherryPickInputSchema)
    .output(CherryPickOutputSchema)
    .mutation(({ ctx, input }) => ctx.services.expressions.cherryPick(input)),

  query: readProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/query',
        tags,
        summary: 'Resolve an expression against one config or several merged',
      },
    })
    .input(QueryInputSchema)
    .output(QueryOutputSchema)
    .mutation(({ ctx, input }) => ctx.services.expressions.query(input)),
});
