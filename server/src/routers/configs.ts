import { tracked, TRPCError } from '@trpc/server';
import { z } from 'zod';
import {
  ChangesInputSchema,
  ConfigNameInputSchema,
  GetConfigOutputSchema,
  ListConfigsOutputSchema,
  PutConfigInputSchema,
  PutConfigOutputSchema,
  RemoveConfigInputSchema,
} from '@linkconfig/shared';
import { feedMessages, FeedUnavailableError } from '../events/feed-messages.js';
import { readProcedure, router, writeProcedure } from '../trpc.js';

const tags = ['configs'];

/**
 * list / get / put / remove of stored configs (`/configs`, `/configs/{name}`), and `changes`, the change
 * feed as a subscription (`GET /events` is its REST twin).
 */
export const configsRouter = router({
  list: readProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/configs',
        tags,
        summary: 'Config names, sorted by code point',
      },
    })
    .input(z.void())
    .output(ListConfigsOutputSchema)
    .query(({ ctx }) => ctx.services.configs.list()),

  get: readProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/configs/{name}',
        tags,
        summary: 'A config with its timestamps; URLs sanitized',
      },
    })
    .input(ConfigNameInputSchema)
    .output(GetConfigOutputSchema)
    .query(async ({ ctx, input }) => {
      const view = await ctx.services.configs.current(input.name);
      if (view === null) {
        throw new TRPCError({
          code: 'NOT_FOUND',
          message: `config "${input.name}" not found`,
        });
      }
      return view.entry();
    }),

  put: writeProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/configs/{name}',
        tags,
        summary: 'Create or overwrite a config (the body is the config)',
        successDescription: 'Stored (no body)',
      },
    })
    .input(PutConfigInputSchema)
    .output(PutConfigOutputSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.configs.put(input.name, input.config, {
        ifMatch: input.ifMatch,
        ifNoneMatch: input.ifNoneMatch,
      }),
    ),

  remove: writeProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/configs/{name}',
        tags,
        summary: 'Delete a config (done whether or not it existed)',
        successDescription: 'Deleted (no body)',
      },
    })
    .input(RemoveConfigInputSchema)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.services.configs.remove(input.name, { ifMatch: input.ifMatch });
    }),

  /**
   * Every committed change, as `tracked()` events whose id is the change id: `httpSubscriptionLink`
   * reconnects with the last id as `lastEventId`, and gets every change after it first. A `reset`
   * message says the id is older than the kept history (list again). When the stream cannot keep up or
   * the server stops, it ends with SERVICE_UNAVAILABLE, which the client retries.
   */
  changes: readProcedure
    .input(ChangesInputSchema)
    .subscription(async function* ({ ctx, input, signal }) {
      const last = input?.lastEventId;
      try {
        for await (const { id, message } of feedMessages(ctx.services.changes, {
          lastEventId:
            last === undefined || last === null ? undefined : Number(last),
          signal,
        })) {
          yield tracked(String(id), message);
        }
      } catch (error) {
        if (error instanceof FeedUnavailableError) {
          throw new TRPCError({
            code: 'SERVICE_UNAVAILABLE',
            message: error.message,
            cause: error,
          });
        }
        throw error;
      }
    }),
});
