/**
 * The access matrix's callers: the stored configs with markers, the keys of each caller (made on the
 * app's database), what each may read, and the bytes an answer or event for it must never hold.
 */
import type { CreateKeyOutput } from '@linkconfig/shared';
import { newKeyMaterial, secretHash } from '../src/keys/key-secret.js';
import { publicKey } from '../src/keys/key-service.js';
import type { StoredKey } from '../src/storage/key-repository.js';
import type { TestApp } from './test-app.js';

/** A config every key in the matrix that may read `site-a/*` reads; its content carries a marker. */
export const T = 'site-a/menu';
export const T_MARK = 'TMARK7f3a';
/** A config only the admin key may read: neither its name nor its content may reach anyone else. */
export const S = 'secret/SMARKNAME';
export const S_MARK = 'SMARK91c2';
/** A config anyone may read (ANONYMOUS_READ is `public/*`), written last in event runs as a sentinel. */
export const P = 'public/page';

export const configWith = (mark: string) => ({
  allLinks: {
    tlink: {
      label: `${mark} link`,
      url: `https://${mark.toLowerCase()}.example/`,
      tags: [mark],
    },
  },
});

export const CALLERS = [
  'admin',
  'none',
  'readOther',
  'writeOther',
  'read',
  'write',
  'expired',
  'revoked',
] as const;
export type Caller = (typeof CALLERS)[number];

/** What may each caller do: the keys are made by {@link makeKeys}. */
export const mayReadT = (caller: Caller): boolean =>
  caller === 'read' || caller === 'write' || caller === 'admin';

/**
 * A key that expired long ago, stored as storage holds one (a key made now must expire ahead of now).
 */
export async function storeExpired(
  t: TestApp,
  scope: 'read' | 'write' | 'admin',
  configs: string[],
): Promise<CreateKeyOutput> {
  const { id, secret } = newKeyMaterial();
  const key: StoredKey = {
    id,
    label: `${scope} ${configs.join(',')}`,
    scope,
    configs,
    secretHash: secretHash(secret),
    expiresAt: '2020-01-01T00:00:00.000Z',
    createdAt: '2019-01-01T00:00:00.000Z',
    lastUsedAt: null,
    revokedAt: null,
  };
  await t.repository.keys.insert(key);
  return { ...publicKey(key), secret };
}

/** Creates the keys of the matrix on the app's database; `none` sends no header. */
export async function makeKeys(
  t: TestApp,
): Promise<Record<Caller, Record<string, string>>> {
  const make = async (
    scope: 'read' | 'write' | 'admin',
    configs: string[],
  ): Promise<CreateKeyOutput> =>
    t.services.keys.create({
      label: `${scope} ${configs.join(',')}`,
      scope,
      configs,
    });
  const revoked = await make('write', ['*']);
  await t.services.keys.revoke(revoked.id);
  const keys = {
    admin: await make('admin', ['*']),
    readOther: await make('read', ['other/*']),
    writeOther: await make('write', ['other/*']),
    read: await make('read', ['site-a/*']),
    write: await make('write', ['site-a/*']),
    expired: await storeExpired(t, 'write', ['*']),
    revoked,
  };
  const header = (key: CreateKeyOutput) => ({
    Authorization: `Bearer ${key.secret}`,
  });
  return {
    none: {},
    admin: header(keys.admin),
    readOther: header(keys.readOther),
    writeOther: header(keys.writeOther),
    read: header(keys.read),
    write: header(keys.write),
    expired: header(keys.expired),
    revoked: header(keys.revoked),
  };
}

/** The bytes an answer or event for `caller` must never hold. */
export function forbiddenBytes(caller: Caller): string[] {
  // The marks in lower case too: they are the host names of the configs' URLs.
  const hidden =
    caller === 'admin' ? [] : [S, S_MARK, 'SMARK', S_MARK.toLowerCase()];
  return mayReadT(caller)
    ? hidden
    : [...hidden, T_MARK, 'TMARK', T_MARK.toLowerCase()];
}
