import { z } from 'zod';
import {
  AccessOutputSchema,
  CreateKeyInputSchema,
  CreateKeyOutputSchema,
  KeyIdInputSchema,
  ListKeysOutputSchema,
} from '@linkconfig/shared';
import type { Context } from '../context.js';
import { DomainError } from '../errors.js';
import type { KeyManager } from '../keys/key-service.js';
import { operation, plain, proceduresOf, router } from '../trpc.js';

const tags = ['keys'];

/** The caller as a manager of keys: it manages the keys within its own scope and patterns. */
const manager = (ctx: Context): KeyManager => {
  const { scope, configs } = ctx.auth.grant();
  // Only admins get here; a caller without a scope would manage nothing.
  return scope === null ? { scope: 'read', configs: [] } : { scope, configs };
};

/**
 * Access keys: what the caller may do (`GET /access`, anyone who may read), and for admins `POST /keys`,
 * `GET /keys`, `DELETE /keys/{id}`, each over the keys within the caller's own scope and patterns.
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
          "The secret (`lck_…`) is stored only as a hash: keep it from this answer, nothing shows it again. The new key must lie within the caller's own: a scope no higher, each pattern within one of its patterns (else 403); `expiresAt` must lie ahead (else 400).",
        successDescription: 'Created; the key with its secret',
      },
      rest: { created: true },
    },
    input: CreateKeyInputSchema,
    output: CreateKeyOutputSchema,
    run: (ctx, input) => plain(ctx.services.keys.create(input, manager(ctx))),
  }),

  list: operation({
    access: 'admin',
    meta: {
      openapi: {
        method: 'GET',
        path: '/keys',
        tags,
        summary:
          "Every key within the caller's scope and patterns, revoked ones included, without secrets",
      },
    },
    input: z.void(),
    output: ListKeysOutputSchema,
    run: async (ctx) => ({
      value: { keys: await ctx.services.keys.list(manager(ctx)) },
    }),
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
        errorResponses: {
          404: "No key has this id within the caller's scope and patterns",
        },
      },
      rest: { representation: 'none' },
    },
    input: KeyIdInputSchema,
    output: z.void(),
    run: async (ctx, input) => {
      if (!(await ctx.services.keys.revoke(input.id, manager(ctx)))) {
        throw new DomainError('not_found', `no key has the id "${input.id}"`);
      }
      return { value: undefined };
    },
  }),
};

export const keysRouter = router(proceduresOf(keysOperations));
