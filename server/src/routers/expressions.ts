import {
  CheckExpressionInputSchema,
  CheckExpressionOutputSchema,
  CherryPickInputSchema,
  CherryPickOutputSchema,
  QueryInputSchema,
  QueryOutputSchema,
} from '@linkconfig/shared';
import { operation, plain, proceduresOf, router } from '../trpc.js';

const tags = ['expressions'];

/** Server-side resolution of link expressions: `/cherry-pick` and `/query`. */
export const expressionsOperations = {
  cherryPick: operation({
    access: 'read',
    meta: {
      openapi: {
        method: 'POST',
        path: '/cherry-pick',
        tags,
        summary: 'Resolve an expression against one config; answer as allLinks',
        errorResponses: { 404: 'The source config does not exist' },
      },
      rest: { expensive: true, reusable: true },
    },
    input: CherryPickInputSchema,
    output: CherryPickOutputSchema,
    run: (ctx, input) =>
      ctx.services.expressions.cherryPick(input, ctx.stateToken, ctx.auth),
  }),

  query: operation({
    access: 'read',
    meta: {
      openapi: {
        method: 'POST',
        path: '/query',
        tags,
        summary: 'Resolve an expression against one config or several merged',
        errorResponses: { 404: 'None of the named configs exists' },
      },
      rest: { expensive: true, reusable: true },
    },
    input: QueryInputSchema,
    output: QueryOutputSchema,
    run: (ctx, input) =>
      ctx.services.expressions.query(input, ctx.stateToken, ctx.auth),
  }),

  check: operation({
    access: 'read',
    meta: {
      openapi: {
        method: 'POST',
        path: '/expressions/check',
        tags,
        summary:
          'Diagnostics for an expression (or a config): what it probably got wrong',
        description:
          'Resolution never fails, so a typo and "no match" look alike; this says which it is, with offsets into the expression (or paths into a config). It changes no result of `/query` or `/cherry-pick`.',
        errorResponses: { 404: 'None of the named configs exists' },
      },
      rest: { expensive: true },
    },
    input: CheckExpressionInputSchema,
    output: CheckExpressionOutputSchema,
    run: (ctx, input) =>
      plain(ctx.services.expressions.check(input, ctx.stateToken, ctx.auth)),
  }),
};

export const expressionsRouter = router(proceduresOf(expressionsOperations));
