import { createHash, randomBytes } from 'node:crypto';

/** Every secret starts with this, so secret scanners can recognise a leaked key. */
export const SECRET_PREFIX = 'lck_';

/** A new key's id (public, short) and secret (256 random bits, base64url, after the prefix). */
export function newKeyMaterial(): { id: string; secret: string } {
  return {
    id: `key_${randomBytes(9).toString('base64url')}`,
    secret: `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`,
  };
}

/**
 * The digest a secret is stored and looked up by. One SHA-256 suffices: the secret has 256 random bits,
 * so no guessing can work backwards from the digest (password hashing would only slow every request).
 */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
