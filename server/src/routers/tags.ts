import { z } from 'zod';
import {
  TagRenameInputSchema,
  TagRenameResultSchema,
} from '@linkconfig/shared';
import { writeOrigin } from '../context.js';
import { operation, proceduresOf, router } from '../trpc.js';

const tags = ['tags'];

/** Tags as things managed (docs/http-api.md#tags): rename and merge across links and expressions. */
export const tagsOperations = {
  rename: operation({
    access: 'write',
    configName: 'name',
    meta: {
      openapi: {
        method: 'POST',
        path: '/configs/{name}/tags/rename',
        tags,
        summary:
          'Rename a tag, or merge several into one, in links and in every expression',
        description:
          'Body `{ "from": "old" | ["NYC", "newyork"], "to": "nyc", "dryRun"?: true }`. Every link tagged with a `from` tag gets `to` instead, and every expression that names one as `.tag` (macros, strings in `settings`) is rewritten through the expression grammar, as one revision (a merge patch). The answer is the preview (links touched, expressions rewritten, each macro\'s ids before and after, flags; `mergesIntoExisting` when `to` was already a tag) and, unless `dryRun`, the new `rev` and the `ETag`. `If-Match` holds the rename (and its preview) to that version.',
        requestHeaders: z.object({
          'If-Match': z.string().optional().meta({
            description:
              'ETags of the version the rename is based on (or `*`: any); 412 when the stored version differs.',
          }),
        }),
        responseHeaders: z.object({
          ETag: z.string().optional().meta({
            description:
              'Strong tag of the version the rename stored (absent for a dry run).',
          }),
        }),
        errorResponses: {
          404: 'No config has this name',
          412: 'The stored version is not the one named by `If-Match` (nothing stored)',
        },
      },
      rest: { headers: { ifMatch: 'If-Match' } },
    },
    input: TagRenameInputSchema,
    output: TagRenameResultSchema,
    run: async (ctx, input) => {
      const { name, ifMatch, ...request } = input;
      const result = await ctx.services.tags.rename(name, request, {
        ifMatch,
        ...writeOrigin(ctx),
      });
      return result.etag === undefined
        ? { value: result }
        : { value: result, etag: result.etag };
    },
  }),
};

export const tagsRouter = router(proceduresOf(tagsOperations));
