/**
 * Access keys in storage: one interface beside the configs (`ConfigRepository.keys`), on the same
 * database, with one contract suite (`config-repository-keys.contract.ts`) every adapter runs. The
 * secret itself is never stored: only its SHA-256 digest (hex), which is how a presented key is found.
 */
import type { KeyScope } from '@linkconfig/shared';

/** One stored key, as every adapter keeps it (backups copy these rows whole). */
export interface StoredKey {
  readonly id: string;
  readonly label: string;
  readonly scope: KeyScope;
  /** Config-name patterns (`*` matches any run of characters). */
  readonly configs: readonly string[];
  /** SHA-256 of the secret, lowercase hex. */
  readonly secretHash: string;
  /** ISO 8601; `null`: never expires. */
  readonly expiresAt: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
}

/** Storage of access keys. */
export interface KeyRepository {
  /** Stores a new key; rejects when its id or secret hash is already stored. */
  insert(key: StoredKey): Promise<void>;
  /** Every key, revoked ones included, oldest first (ties by id); for listings and backups. */
  list(): Promise<StoredKey[]>;
  /** The key whose secret has this digest, or `null`. */
  findByHash(secretHash: string): Promise<StoredKey | null>;
  /**
   * Marks a key revoked at `at` (a key revoked before keeps its first time). `false` when no key has
   * this id.
   */
  revoke(id: string, at: string): Promise<boolean>;
  /** Records a use of the key (callers keep this to about once a minute per key). */
  touch(id: string, at: string): Promise<void>;
  /** Whether any key was ever stored (revoked ones count: revoking the last key never opens a server). */
  hasAny(): Promise<boolean>;
  /** Stores these rows as they are, replacing keys with the same id (restoring a backup). */
  putAll(keys: readonly StoredKey[]): Promise<void>;
}

/** A stored key's row as SQL adapters read it (snake case; `configs` as a JSON array). */
export interface KeyRow {
  readonly id: string;
  readonly label: string;
  readonly scope: string;
  readonly configs: string;
  readonly secret_hash: string;
  readonly expires_at: string | null;
  readonly created_at: string;
  readonly last_used_at: string | null;
  readonly revoked_at: string | null;
}

/** A row read back as a {@link StoredKey}. */
export function keyOfRow(row: KeyRow): StoredKey {
  return {
    id: row.id,
    label: row.label,
    scope: row.scope as KeyScope,
    configs: JSON.parse(row.configs) as string[],
    secretHash: row.secret_hash,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** A key's column values in the order of {@link KEY_COLUMNS}. */
export function rowValues(key: StoredKey): unknown[] {
  return [
    key.id,
    key.label,
    key.scope,
    JSON.stringify(key.configs),
    key.secretHash,
    key.expiresAt,
    key.createdAt,
    key.lastUsedAt,
    key.revokedAt,
  ];
}

/** The columns of the keys table, in the order of {@link rowValues}. */
export const KEY_COLUMNS =
  'id, label, scope, configs, secret_hash, expires_at, created_at, last_used_at, revoked_at';
