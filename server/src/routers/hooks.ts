import { z } from 'zod';
import {
  CreateHookInputSchema,
  CreateHookOutputSchema,
  HookIdInputSchema,
  HookLogInputSchema,
  HookLogOutputSchema,
  ListHooksOutputSchema,
} from '@linkconfig/shared';
import type { Context } from '../context.js';
import { DomainError } from '../errors.js';
import type { HookManager } from '../hooks/hook-service.js';
import { operation, plain, proceduresOf, router } from '../trpc.js';

const tags = ['hooks'];

/** The caller as a manager of hooks: the hooks within its own patterns (as with keys). */
const manager = (ctx: Context): HookManager => ({
  configs: ctx.auth.grant().configs,
});

const noHook = (id: string): DomainError =>
  new DomainError('not_found', `no hook has the id "${id}"`);

/**
 * Webhooks, for admins (docs/publishing.md, "Webhooks"): `POST /hooks`, `GET /hooks`, `DELETE /hooks/{id}`
 * and `GET /hooks/{id}/log`, each over the hooks within the caller's patterns.
 */
export const hooksOperations = {
  create: operation({
    access: 'admin',
    meta: {
      openapi: {
        method: 'POST',
        path: '/hooks',
        tags,
        summary: 'Create a webhook; its signing secret is answered this once',
        description:
          "Each event of the log of changes of the kinds in `events`, about a config its patterns match, is POSTed to `url` as JSON, signed with HMAC-SHA256 in `Linkconfig-Signature`, and retried with backoff for 24 hours. The hook hears of what happens from now on. Its patterns must lie within the caller's (else 403).",
        successDescription: 'Created; the hook with its secret',
      },
      rest: { created: true },
    },
    input: CreateHookInputSchema,
    output: CreateHookOutputSchema,
    run: (ctx, input) => plain(ctx.services.hooks.create(input, manager(ctx))),
  }),

  list: operation({
    access: 'admin',
    meta: {
      openapi: {
        method: 'GET',
        path: '/hooks',
        tags,
        summary:
          "Every webhook within the caller's patterns, with where it stands, without secrets",
      },
    },
    input: z.void(),
    output: ListHooksOutputSchema,
    run: async (ctx) => ({
      value: { hooks: await ctx.services.hooks.list(manager(ctx)) },
    }),
  }),

  remove: operation({
    access: 'admin',
    meta: {
      openapi: {
        method: 'DELETE',
        path: '/hooks/{id}',
        tags,
        summary: 'Remove a webhook and its delivery log',
        successDescription: 'Removed; no body',
        errorResponses: {
          404: "No hook has this id within the caller's patterns",
        },
      },
      rest: { representation: 'none' },
    },
    input: HookIdInputSchema,
    output: z.void(),
    run: async (ctx, input) => {
      if (!(await ctx.services.hooks.remove(input.id, manager(ctx))))
        throw noHook(input.id);
      return { value: undefined };
    },
  }),

  log: operation({
    access: 'admin',
    meta: {
      openapi: {
        method: 'GET',
        path: '/hooks/{id}/log',
        tags,
        summary:
          'The latest delivery attempts of a webhook, newest first (status, error, duration)',
        errorResponses: {
          404: "No hook has this id within the caller's patterns",
        },
      },
    },
    input: HookLogInputSchema,
    output: HookLogOutputSchema,
    run: async (ctx, input) => {
      const deliveries = await ctx.services.hooks.deliveries(
        input.id,
        input.limit,
        manager(ctx),
      );
      if (deliveries === null) throw noHook(input.id);
      return { value: { id: input.id, deliveries } };
    },
  }),
};

export const hooksRouter = router(proceduresOf(hooksOperations));
