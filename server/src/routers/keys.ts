import { z } from 'zod';
import {
  AccessOutputSchema,
  CreateKeyInputSchema,
  CreateKeyOutputSchema,
  KeyIdInputSchema,
  ListKeysOutputSchema,
} from '@linkconfig/shared';
import { DomainError } from '../errors.js';
import { operation, plain, proceduresOf, router } from '../trpc.js';

const tags = ['keys'];

/**
 * Access keys: what the caller may do (`GET /access`, anyone who may read), and for admins `POST /keys`,
 * `GET /keys`, `DELETE /keys/{id}`.
 */
export const keysOperations = {
  access: operation({
    access: 'read',
    meta: {
      openapi: {
        method: 'GET',
        path: '/access',
        tags,
        summary:
          "What the caller may do: its key's scope and name patterns, and what anyone may read",
      },
    },
    input: z.void(),
    output: AccessOutputSchema,
    run: (ctx) => {
      const grant = ctx.auth.grant();
      return plain({
        scope: grant.scope,
        configs: [...grant.configs],
        anonymousRead: [...grant.anonymousRead],
        key: ctx.auth.author(),
      });
    },
  }),

  create: operation({
    access: 'admin',
    meta: {
      openapi: {
        method: 'POST',
        path: '/keys',
        tags,
        summary: 'Create an access key; its secret is answered this once',
        description:
          'The secret (`lck_…`) is stored only as a hash: keep it from this answer, nothing shows it again.',
        successDescription: 'Created; the key with its secret',
      },
      rest: { created: true },
    },
    input: CreateKeyInputSchema,
    output: CreateKeyOutputSchema,
    run: (ctx, input) => plain(ctx.services.keys.create(input)),
  }),

  list: operation({
    access: 'admin',
    meta: {
      openapi: {
        method: 'GET',
        path: '/keys',
        tags,
        summary: 'Every key, revoked ones included, without secrets',
      },
    },
    input: z.void(),
    output: ListKeysOutputSchema,
    run: async (ctx) => ({ value: { keys: await ctx.services.keys.list() } }),
  }),

  revoke: operation({
    access: 'admin',
    meta: {
      openapi: {
        method: 'DELETE',
        path: '/keys/{id}',
        tags,
        summary: 'Revoke a key: refused from now on, on every instance',
        successDescription: 'Revoked (or revoked before); no body',
        errorResponses: { 404: 'No key has this id' },
      },
      rest: { representation: 'none' },
    },
    input: KeyIdInputSchema,
    output: z.void(),
    run: async (ctx, input) => {
      if (!(await ctx.services.keys.revoke(input.id))) {
        throw new DomainError('not_found', `no key has the id "${input.id}"`);
      }
      return { value: undefined };
    },
  }),
};

export const keysRouter = router(proceduresOf(keysOperations));
