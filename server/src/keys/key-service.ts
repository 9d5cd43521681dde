import type {
  AccessKey,
  CreateKeyInput,
  CreateKeyOutput,
} from '@linkconfig/shared';
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
 * The rules of managing keys, shared by `POST/GET/DELETE /keys` and `linkconfig keys`: a new key gets a
 * random id and secret; only the secret's digest is stored, and the secret is answered once.
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

  /** Creates a key; the answer holds its secret, which nothing can show again. */
  async create(input: CreateKeyInput): Promise<CreateKeyOutput> {
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
      createdAt: this.#now().toISOString(),
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.#keys.insert(key);
    return { ...publicKey(key), secret };
  }

  /** Every key, revoked ones included, without secrets. */
  async list(): Promise<AccessKey[]> {
    return (await this.#keys.list()).map(publicKey);
  }

  /** Revokes a key at once; `false` when no key has this id. */
  async revoke(id: string): Promise<boolean> {
    const revoked = await this.#keys.revoke(id, this.#now().toISOString());
    this.#changed();
    return revoked;
  }
}
