import { z } from 'zod';
import {
  AuditInputSchema,
  AuditOutputSchema,
  DiffInputSchema,
  DiffOutputSchema,
  HistoryInputSchema,
  HistoryOutputSchema,
  RestoreInputSchema,
  RestoreOutputSchema,
  RevisionInputSchema,
  RevisionOutputSchema,
} from '@linkconfig/shared';
import { writeOrigin } from '../context.js';
import { operation, plain, proceduresOf, router } from '../trpc.js';

const tags = ['history'];

/** History of configs: revisions, differences, restores, the audit trail. */
export const historyOperations = {
  list: operation({
    access: 'read',
    configName: 'name',
    meta: {
      openapi: {
        method: 'GET',
        path: '/configs/{name}/history',
        tags,
        summary: 'Revisions of a config, newest first, with what each changed',
        description:
          'Each revision with its link counts against the one before (a delete holds no links). Works for a deleted config.',
        errorResponses: { 404: 'No config of this name ever existed' },
      },
      // Rebuilds, parses or compares stored revisions: the expensive-read budget (rate-limit.ts).
      rest: { expensive: true },
    },
    input: HistoryInputSchema,
    output: HistoryOutputSchema,
    run: (ctx, input) =>
      plain(
        ctx.services.history.history(input.name, {
          limit: input.limit,
          before: input.before,
        }),
      ),
  }),

  revision: operation({
    access: 'read',
    configName: 'name',
    meta: {
      openapi: {
        method: 'GET',
        path: '/configs/{name}/revisions/{rev}',
        tags,
        summary: 'A config as one revision stored it; URLs sanitized',
        errorResponses: {
          404: 'No such revision, or it is a delete (which holds no config)',
        },
      },
      // Rebuilds, parses or compares stored revisions: the expensive-read budget (rate-limit.ts); a
      // revision never changes, so its answer may be kept (private: access to it may change).
      rest: { expensive: true, immutable: true },
    },
    input: RevisionInputSchema,
    output: RevisionOutputSchema,
    run: (ctx, input) =>
      plain(ctx.services.history.revision(input.name, input.rev)),
  }),

  diff: operation({
    access: 'read',
    configName: 'name',
    meta: {
      openapi: {
        method: 'GET',
        path: '/configs/{name}/diff',
        tags,
        summary: 'What changed between two revisions (to: default the newest)',
        errorResponses: { 404: 'No such config or revision' },
      },
      // Rebuilds, parses or compares stored revisions: the expensive-read budget (rate-limit.ts).
      rest: { expensive: true },
    },
    input: DiffInputSchema,
    output: DiffOutputSchema,
    run: (ctx, input) =>
      plain(
        ctx.services.history.diff(input.name, {
          from: input.from,
          to: input.to,
        }),
      ),
  }),

  restore: operation({
    access: 'write',
    configName: 'name',
    meta: {
      openapi: {
        method: 'POST',
        path: '/configs/{name}/restore',
        tags,
        summary:
          'Store a revision again (undeleting), or only some of its links',
        description:
          'A write like PUT: `If-Match` is honoured (412 when the stored version differs). The restore is a revision of its own (op `restore`).',
        requestHeaders: z.object({
          'If-Match': z.string().optional().meta({
            description:
              'ETags of the version this restore is based on (or `*`); 412 when the stored version differs.',
          }),
        }),
        responseHeaders: z.object({
          ETag: z
            .string()
            .meta({ description: 'Strong tag of the stored version.' }),
        }),
        errorResponses: {
          404: 'No such revision, or it is a delete; or (links) the config does not exist',
        },
      },
      rest: { headers: { ifMatch: 'If-Match' } },
    },
    input: RestoreInputSchema,
    output: RestoreOutputSchema,
    run: async (ctx, input) => {
      const result = await ctx.services.history.restore(
        input.name,
        {
          rev: input.rev,
          links: input.links,
          conditions: { ifMatch: input.ifMatch },
        },
        writeOrigin(ctx),
      );
      return { value: result, etag: result.etag };
    },
  }),

  audit: operation({
    access: 'read',
    meta: {
      openapi: {
        method: 'GET',
        path: '/history',
        tags,
        summary:
          'The audit trail: every revision of every config, oldest first',
        description:
          '`since` is a change id (the ids of the change feed); `next` is the `since` of the next page.',
      },
      // Scans up to ten pages of the log per answer: the expensive-read budget (rate-limit.ts).
      rest: { expensive: true },
    },
    input: AuditInputSchema,
    output: AuditOutputSchema,
    run: async (ctx, input) => {
      // Every entry passes the caller's read check (history-service.ts), `next` included.
      const page = await ctx.services.history.audit(
        { since: input.since, limit: input.limit, config: input.config },
        (name) => ctx.auth.canRead(name),
      );
      return { value: page };
    },
  }),
};

export const historyRouter = router(proceduresOf(historyOperations));
