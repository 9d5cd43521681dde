import { patternsWithin, scopeCovers } from '@linkconfig/shared';
import type {
  AccessKey,
  CreateKeyInput,
  CreateKeyOutput,
  KeyScope,
} from '@linkconfig/shared';
import { DomainError } from '../errors.js';
import type { KeyRepository, StoredKey } from '../storage/key-repository.js';
import { newKeyMaterial, secretHash } from './key-secret.js';

/** A stored key as callers see it: everything but the secret's digest. */
export function publicKey(key: StoredKey): AccessKey {
  return {
    id: key.id,
    label: key.label,
    scope: key.scope,
    configs: [...key.configs],
    expiresAt: key.expiresAt,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    revokedAt: key.revokedAt,
  };
}

/**
 * Who manages keys: the scope and name patterns of the key (or token) that asks. A key manages only the
 * keys that lie within its own: a scope no higher than its own and patterns each within one of its own
 * (`patternWithin`), so no key can make, see or revoke a key that reaches beyond it.
 */
export interface KeyManager {
  readonly scope: KeyScope;
  readonly configs: readonly string[];
}

/** The operator on the database (`linkconfig keys`), and `API_TOKEN`: every key lies within. */
export const EVERY_KEY: KeyManager = { scope: 'admin', configs: ['*'] };

/** Whether `key` lies within what `manager` holds. */
export function keyWithin(
  key: Pick<StoredKey, 'scope' | 'configs'>,
  manager: KeyManager,
): boolean {
  return (
    scopeCovers(manager.scope, key.scope) &&
    patternsWithin(key.configs, manager.configs)
  );
}

/**
 * Why an expiry cannot be given to a new key (`null`: it can): it must lie ahead of `now`, or the key
 * would be born expired. One rule for `POST /keys` and `linkconfig keys create --expires`.
 */
export function expiryRefused(expiresAt: string, now: Date): string | null {
  return Date.parse(expiresAt) <= now.getTime()
    ? `expiresAt must lie in the future; got "${expiresAt}"`
    : null;
}

/**
 * The rules of managing keys, shared by `POST/GET/DELETE /keys` and `linkconfig keys`: a new key gets a
 * random id and secret; only the secret's digest is stored, and the secret is answered once. A key
 * manages only the keys within its own scope and patterns ({@link KeyManager}).
 */
export class KeyService {
  readonly #keys: KeyRepository;
  readonly #now: () => Date;

  readonly #changed: () => void;

  /** `changed` is told after a revoke (the process's kept keys are then forgotten). */
  constructor(
    keys: KeyRepository,
    now: () => Date = () => new Date(),
    changed: () => void = () => undefined,
  ) {
    this.#keys = keys;
    this.#now = now;
    this.#changed = changed;
  }

  /**
   * Creates a key; the answer holds its secret, which nothing can show again. Refused (403) when the key
   * would reach beyond `by`'s scope or patterns, and (400) when its expiry does not lie ahead.
   */
  async create(
    input: CreateKeyInput,
    by: KeyManager = EVERY_KEY,
  ): Promise<CreateKeyOutput> {
    if (!scopeCovers(by.scope, input.scope)) {
      throw new DomainError(
        'forbidden',
        `this key may not make a key of scope ${input.scope}, above its own (${by.scope})`,
      );
    }
    const outside = input.configs.find((p) => !patternsWithin([p], by.configs));
    if (outside !== undefined) {
      throw new DomainError(
        'forbidden',
        `this key may not make a key for "${outside}": it reaches beyond its own patterns (${by.configs.join(', ')})`,
      );
    }
    const now = this.#now();
    const refused =
      input.expiresAt === undefined
        ? null
        : expiryRefused(input.expiresAt, now);
    if (refused !== null) throw new DomainError('invalid_request', refused);
    const { id, secret } = newKeyMaterial();
    const key: StoredKey = {
      id,
      label: input.label,
      scope: input.scope,
      configs: [...new Set(input.configs)],
      secretHash: secretHash(secret),
      expiresAt:
        input.expiresAt === undefined
          ? null
          : new Date(input.expiresAt).toISOString(),
      createdAt: now.toISOString(),
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.#keys.insert(key);
    return { ...publicKey(key), secret };
  }

  /** The keys within `by`, revoked ones included, without secrets. */
  async list(by: KeyManager = EVERY_KEY): Promise<AccessKey[]> {
    return (await this.#keys.list())
      .filter((key) => keyWithin(key, by))
      .map(publicKey);
  }

  /**
   * Revokes a key within `by` at once; `false` when no key has this id, or when that key lies beyond
   * `by` (the same answer: a key learns nothing of the keys beyond it).
   */
  async revoke(id: string, by: KeyManager = EVERY_KEY): Promise<boolean> {
    const key = (await this.#keys.list()).find((k) => k.id === id);
    if (key === undefined || !keyWithin(key, by)) return false;
    const revoked = await this.#keys.revoke(id, this.#now().toISOString());
    this.#changed();
    return revoked;
  }
}
