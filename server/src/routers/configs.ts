import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import {
  ConfigNameInputSchema,
  GetConfigOutputSchema,
  ListConfigsOutputSchema,
  PutConfigInputSchema,
} from '@linkconfig/shared';
import { readProcedure, router, writeProcedure } from '../trpc.js';

const tags = ['configs'];

/** list / get / put / remove of stored configs (`/configs`, `/configs/{name}`). */
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
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.services.configs.put(input.name, input.config);
    }),

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
    .input(ConfigNameInputSchema)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.services.configs.remove(input.name);
    }),
});
