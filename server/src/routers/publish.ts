import { z } from 'zod';
import {
  ConfigNameInputSchema,
  PublishInputSchema,
  PublishRecordSchema,
  UnpublishOutputSchema,
} from '@linkconfig/shared';
import { namedConfig } from '../access-check.js';
import { publishedContext, writeOrigin } from '../context.js';
import { operation, plain, proceduresOf, router } from '../trpc.js';
import type { AnyOperation } from '../trpc.js';
import { configsOperations } from './configs.js';
import { expressionsOperations } from './expressions.js';
import { searchOperations } from './search.js';

const tags = ['publishing'];

/** Publishing a config: its publish record, publish (and roll back), unpublish. */
export const publishOperations = {
  status: operation({
    access: 'read',
    configName: 'name',
    meta: {
      openapi: {
        method: 'GET',
        path: '/configs/{name}/publish',
        tags,
        summary:
          'The publish record: which revision sites see, for which origins',
        errorResponses: {
          404: 'No config has this name, or it is not published',
        },
      },
    },
    input: ConfigNameInputSchema,
    output: PublishRecordSchema,
    run: (ctx, input) => plain(ctx.services.publish.status(input.name)),
  }),

  publish: operation({
    access: 'publish',
    configName: 'name',
    meta: {
      openapi: {
        method: 'POST',
        path: '/configs/{name}/publish',
        tags,
        summary:
          'Publish a revision (default: the head); an older one rolls back',
        description:
          'Pins the revision `/published` serves, with the site origins allowed to read it from a browser. `If-Match` must name the head (the draft reviewed). Needs a key with `publish` scope (or `admin`) whose patterns match the name.',
        requestHeaders: z.object({
          'If-Match': z.string().optional().meta({
            description:
              'ETag of the head (the draft reviewed); 412 when the head has changed since.',
          }),
        }),
        errorResponses: {
          404: 'No config has this name, or it has no such revision with content',
        },
      },
      rest: { headers: { ifMatch: 'If-Match' } },
    },
    input: PublishInputSchema,
    output: PublishRecordSchema,
    run: (ctx, input) =>
      plain(ctx.services.publish.publish(input.name, input, writeOrigin(ctx))),
  }),

  unpublish: operation({
    access: 'publish',
    configName: 'name',
    meta: {
      openapi: {
        method: 'DELETE',
        path: '/configs/{name}/publish',
        tags,
        summary: 'Unpublish: the config leaves `/published` (its draft stays)',
        description:
          'Answers the revision that was published (`null`: none was; the answer is 200 either way).',
      },
    },
    input: ConfigNameInputSchema,
    output: UnpublishOutputSchema,
    run: (ctx, input) =>
      plain(ctx.services.publish.unpublish(input.name, writeOrigin(ctx))),
  }),
};

export const publishRouter = router(proceduresOf(publishOperations));

/**
 * A read operation of the contract, under `/published`: the same operation over the published view
 * (`publishedContext`: a page of another site reads only what its origin may), with the same input and
 * answer shapes. Over REST the view is taken before the route runs (its CORS headers and kept answers
 * need it); over tRPC here, for the one config the call names, if any.
 */
function published<O extends AnyOperation>(
  op: O,
  input: AnyOperation['input'] = op.input,
): O {
  return {
    ...op,
    input,
    meta: {
      ...op.meta,
      openapi: {
        ...op.meta.openapi,
        path: `/published${op.meta.openapi.path}`,
        tags: ['published'],
        summary: `${op.meta.openapi.summary ?? ''} (published versions only)`,
      },
    },
    run: async (ctx, value, received) =>
      op.run(
        await publishedContext(
          ctx,
          op.configName === undefined
            ? undefined
            : namedConfig(value, op.configName),
        ),
        value,
        received,
      ),
  };
}

/**
 * `/published`: the contract's read endpoints over published versions only (docs/publishing.md). Over
 * REST `PUBLISHED_READ` and the cache headers apply; the tRPC procedures (`published.*`) read with the
 * caller's key, as every procedure does. Both follow the publish records' origins for a page of another
 * site (docs/publishing.md#origins). `GET /published/configs` lists published names only (its `deleted`
 * parameter is not there: unknown parameters are ignored).
 */
export const publishedOperations = {
  list: published(
    configsOperations.list,
    z.object({}).optional() as AnyOperation['input'],
  ),
  get: published(configsOperations.get),
  search: published(searchOperations.links),
  query: published(expressionsOperations.query),
  cherryPick: published(expressionsOperations.cherryPick),
};

export const publishedRouter = router(proceduresOf(publishedOperations));
