import { TRPCError, tracked } from '@trpc/server';
import { z } from 'zod';
import {
  ChangesInputSchema,
  GetConfigInputSchema,
  GetConfigOutputSchema,
  ListConfigsInputSchema,
  ListConfigsOutputSchema,
  PatchConfigInputSchema,
  PutConfigInputSchema,
  PutConfigOutputSchema,
  RemoveConfigInputSchema,
} from '@linkconfig/shared';
import { feedMessages, FeedUnavailableError } from '../events/feed-messages.js';
import { writeOrigin } from '../context.js';
import type { Context } from '../context.js';
import { configNotFound } from '../errors.js';
import { watchAccess } from '../keys/access-watch.js';
import {
  operation,
  plain,
  proceduresOf,
  readProcedure,
  router,
} from '../trpc.js';

const tags = ['configs'];

const ifMatchHeader = z.object({
  'If-Match': z.string().optional().meta({
    description:
      'ETags of the version this write is based on (or `*`: any existing version); 412 when the stored version differs.',
  }),
});

const etagHeader = z.object({
  ETag: z.string().meta({ description: 'Strong tag of the stored version.' }),
});

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
        description:
          'With `deleted=true`: the names deleted and still restorable (`POST /configs/{name}/restore`).',
      },
      rest: { reusable: true },
    },
    input: ListConfigsInputSchema,
    output: ListConfigsOutputSchema,
    run: async (ctx, input) =>
      plain(
        input?.deleted === 'true'
          ? (await ctx.services.history.deleted()).filter((name) =>
              ctx.auth.canRead(name),
            )
          : ctx.services.configs.list(ctx.stateToken, ctx.auth),
      ),
  }),

  get: operation({
    access: 'read',
    configName: 'name',
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
        responseHeaders: etagHeader,
        errorResponses: { 404: 'No config has this name' },
      },
      rest: { representation: 'entry' },
    },
    input: GetConfigInputSchema,
    output: GetConfigOutputSchema,
    run: async (ctx, input) => {
      const view = await ctx.services.configs.current(
        input.name,
        ctx.stateToken,
        ctx.auth,
      );
      if (view === null) {
        throw configNotFound(input.name);
      }
      if (input.links === 'healthy') {
        // Another answer than the stored version's: no ETag, never a 304.
        return {
          value: await ctx.services.linkHealth.healthyEntry(view.entry),
        };
      }
      return { value: view.entry, version: view };
    },
  }),

  put: operation({
    access: 'write',
    configName: 'name',
    meta: {
      openapi: {
        method: 'PUT',
        path: '/configs/{name}',
        tags,
        summary: 'Create or overwrite a config (the body is the config)',
        description:
          'Without preconditions PUT overwrites. `If-Match` stores only over the version with that ETag; `If-None-Match: *` only creates.',
        requestHeaders: ifMatchHeader.extend({
          'If-None-Match': z.string().optional().meta({
            description: '`*`: store only when no config has this name yet.',
          }),
        }),
        responseHeaders: etagHeader,
        successDescription: 'Stored (no body); `ETag` names the new version',
      },
      rest: {
        body: { as: 'config' },
        headers: { ifMatch: 'If-Match', ifNoneMatch: 'If-None-Match' },
        representation: 'none',
      },
    },
    input: PutConfigInputSchema,
    output: PutConfigOutputSchema,
    run: async (ctx, input, { body }) => {
      // Over REST the body is the config: stored as received, its text included.
      const { etag } = await ctx.services.configs.put(
        input.name,
        body ?? input.config,
        {
          ifMatch: input.ifMatch,
          ifNoneMatch: input.ifNoneMatch,
          ...writeOrigin(ctx),
        },
      );
      return { value: { etag }, etag };
    },
  }),

  patch: operation({
    // The same access as `put`: whatever rule decides who may write a name decides both.
    access: 'write',
    configName: 'name',
    meta: {
      openapi: {
        method: 'PATCH',
        path: '/configs/{name}',
        tags,
        summary: 'Change part of a config with a JSON Merge Patch (RFC 7396)',
        description:
          'The body (`application/merge-patch+json`, or `application/json`) is merged into the stored config: members replace, `null` removes, objects merge, arrays are replaced whole. The result must be a valid config. `If-Match` applies the patch only to that version; without it the patch applies to the current version.',
        requestHeaders: ifMatchHeader,
        responseHeaders: etagHeader,
        successDescription: 'Stored (no body); `ETag` names the new version',
        errorResponses: {
          400: 'The body is not a JSON object, or the patched config would not be valid (nothing stored)',
          404: 'No config has this name',
        },
      },
      rest: {
        body: { as: 'patch' },
        headers: { ifMatch: 'If-Match' },
        representation: 'none',
      },
    },
    input: PatchConfigInputSchema,
    output: PutConfigOutputSchema,
    run: async (ctx, input) => {
      const { etag } = await ctx.services.configs.patch(
        input.name,
        input.patch,
        { ifMatch: input.ifMatch, ...writeOrigin(ctx) },
      );
      return { value: { etag }, etag };
    },
  }),

  remove: operation({
    access: 'write',
    configName: 'name',
    meta: {
      openapi: {
        method: 'DELETE',
        path: '/configs/{name}',
        tags,
        summary: 'Delete a config (done whether or not it existed)',
        description:
          'Without `If-Match` the answer is 204 whether or not the config existed.',
        requestHeaders: ifMatchHeader,
        successDescription: 'Deleted (or never existed); no body',
      },
      rest: { headers: { ifMatch: 'If-Match' }, representation: 'none' },
    },
    input: RemoveConfigInputSchema,
    output: z.void(),
    run: async (ctx, input) => {
      await ctx.services.configs.remove(input.name, {
        ifMatch: input.ifMatch,
        ...writeOrigin(ctx),
      });
      return { value: undefined };
    },
  }),
};

export const configsRouter = router({
  ...proceduresOf(configsOperations),

  /**
   * Every committed change, as `tracked()` events whose id is the change id: `httpSubscriptionLink`
   * reconnects with the last id as `lastEventId`, and gets every change after it first. A `reset`
   * message says the id is older than the kept history (list again). When the stream cannot keep up or
   * the server stops, it ends with SERVICE_UNAVAILABLE, which the client retries. A key revoked or
   * expired while it is open ends it with UNAUTHORIZED.
   */
  changes: readProcedure
    .input(ChangesInputSchema)
    .subscription(async ({ ctx, input, signal }) => {
      const last = input?.lastEventId;
      // "From now on" is fixed before tRPC answers: a change the client makes once subscribed is sent.
      const after =
        last === undefined || last === null
          ? await ctx.services.changes.startingPoint()
          : Number(last);
      if (typeof after === 'string') {
        throw new TRPCError({
          code: 'SERVICE_UNAVAILABLE',
          message: new FeedUnavailableError(after).message,
        });
      }
      return changeMessages(ctx, after, signal);
    }),
});

/** The subscription's messages after `after`, ended when the caller's key stops being valid. */
async function* changeMessages(
  ctx: Context,
  after: number,
  signal: AbortSignal | undefined,
) {
  const lost = new AbortController();
  const stop = watchAccess(ctx.stillValid, () => lost.abort());
  try {
    for await (const { id, message } of feedMessages(ctx.services.changes, {
      lastEventId: after,
      signal:
        signal === undefined
          ? lost.signal
          : AbortSignal.any([signal, lost.signal]),
      readable: ctx.auth.canRead,
    })) {
      yield tracked(String(id), message);
    }
    if (lost.signal.aborted) {
      throw new TRPCError({
        code: 'UNAUTHORIZED',
        message: 'the key is no longer valid',
      });
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
  } finally {
    stop();
  }
}
