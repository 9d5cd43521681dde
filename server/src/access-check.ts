/**
 * The access check every transport runs before anything else (REST routes, `/trpc` procedures, `/events`,
 * `/metrics`): whether the caller may make a kind of call at all ({@link accessDenied}), and whether it
 * may act on the one config a call names ({@link nameDenied}). Which input names that config is declared
 * by each operation (`Operation.configName`, read by {@link namedConfig}); nothing infers it.
 * The rights themselves (scopes, name patterns) are `auth.ts`'s.
 */
import { configNotFound, DomainError } from './errors.js';
import type { Access, RequestAuth } from './auth.js';

const REFUSED_BEARER: Readonly<Record<string, string>> = {
  invalid: 'the bearer token is not valid',
  expired: 'the key has expired',
  revoked: 'the key was revoked',
};

const NEEDS: Readonly<Record<Access, string>> = {
  read: 'reading',
  write: 'writing',
  publish: 'publishing',
  admin: 'managing keys',
};

/**
 * Why a request may not make calls that need `need`, as the error to throw, or `null` when it may. The
 * procedures use it, and the REST routes call it before reading a body, so an unauthorized caller costs
 * no parsing. A bearer that opens nothing (unknown, expired, revoked) is refused everywhere.
 */
export function accessDenied(
  auth: RequestAuth,
  need: Access,
): DomainError | null {
  const token = auth.token();
  const refused = REFUSED_BEARER[token];
  if (refused !== undefined) return new DomainError('unauthorized', refused);
  if (auth.may(need)) return null;
  if (token === 'none') {
    return new DomainError(
      'unauthorized',
      `${NEEDS[need]} needs a key (Authorization: Bearer <key>)`,
    );
  }
  return new DomainError(
    'forbidden',
    need === 'admin'
      ? 'managing keys needs a key with admin scope'
      : need === 'publish'
        ? 'publishing needs a key with publish or admin scope'
        : 'this key may only read',
  );
}

/**
 * Why a call may not act on the config `name`, or `null`. A name the caller may not read is answered as
 * a missing one (404, the same words); a write outside its write patterns is 403 whether or not the name
 * exists, so neither answer tells that it does.
 */
export function nameDenied(
  auth: RequestAuth,
  need: Access,
  name: string,
): DomainError | null {
  if (need === 'read') {
    return auth.canRead(name) ? null : configNotFound(name);
  }
  // Publishing needs a scope that covers it (checked by `accessDenied`) and a write pattern for the name.
  return auth.canWrite(name)
    ? null
    : new DomainError(
        'forbidden',
        `this key may not ${need === 'publish' ? 'publish' : 'write'} "${name}"`,
      );
}

/** The config name a call's (parsed) input holds in `field`. */
export function namedConfig(input: unknown, field: string): string {
  return String((input as Record<string, unknown>)[field]);
}
