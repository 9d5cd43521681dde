import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import {
  ConfigNameInputSchema,
  GetConfigOutputSchema,
  ListConfigsOutputSchema,
  PutConfigInputSchema,
} from '@linkconfig/shared';
import { mutationOf, operation, queryOf, router } from '../trpc.js';

const tags = ['configs'];

/** list / get / put / remove of stored configs (`/configs`, `/configs/{name}`). */
export const configsOperations = {
  list: operation({
    access: 'read',
    meta: {
      openapi: {
        method: 'GET',
        path: '/configs',
        tags,
        summary: 'Config names, sorted by code point',
      },
    },
    input: z.void(),
    output: ListConfigsOutputSchema,
    run: (ctx) => ctx.services.configs.list(),
  }),

  get: operation({
    access: 'read',
    meta: {
      openapi: {
        method: 'GET',
        path: '/configs/{name}',
        tags,
        summary: 'A config with its timestamps; URLs sanitized',
        description:
          'Answers the stored version with a strong `ETag`; send it back in `If-None-Match` to get 304 while the config is unchanged.',
        requestHeaders: z.object({
          'If-None-Match': z.string().optional().meta({
            description:
              'ETags of copies the client holds (or `*`): 304 when one is the current version.',
          }),
        }),
        responseHeaders: z.object({
          ETag: z.string().meta({
            description: 'Strong tag of the stored version.',
          }),
        }),
        errorResponses: { 404: 'No config has this name' },
      },
    },
    input: ConfigNameInputSchema,
    output: GetConfigOutputSchema,
    run: async (ctx, input) => {
      const view = await ctx.services.configs.current(input.name);
      if (view === null) {
        throw new TRPCError({
          code: 'NOT_FOUND',
          message: `config "${input.name}" not found`,
        });
      }
      return view.entry;
    },
  }),

  put: operation({
    access: 'write',
    meta: {
      openapi: {
        method: 'PUT',
        path: '/configs/{name}',
        tags,
        summary: 'Create or overwrite a config (the body is the config)',
        successDescription: 'Stored (no body)',
      },
      rest: { body: { as: 'config' }, status: 204 },
    },
    input: PutConfigInputSchema,
    output: z.void(),
    run: async (ctx, input) => {
      await ctx.services.configs.put(input.name, input.config);
    },
  }),

  remove: operation({
    access: 'write',
    meta: {
      openapi: {
        method: 'DELETE',
        path: '/configs/{name}',
        tags,
        summary: 'Delete a config (done whether or not it existed)',
        successDescription: 'Deleted (no body)',
      },
      rest: { status: 204 },
    },
    input: ConfigNameInputSchema,
    output: z.void(),
    run: async (ctx, input) => {
      await ctx.services.configs.remove(input.name);
    },
  }),
};

export const configsRouter = router({
  list: queryOf(configsOperations.list),
  get: queryOf(configsOperations.get),
  put: mutationOf(configsOperations.put),
  remove: mutationOf(configsOperations.remove),
});
