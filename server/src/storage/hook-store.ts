/**
 * Webhooks in storage (docs/publishing.md, "Webhooks"): one row per hook, beside the configs in the same
 * database (`ConfigRepository.hooks`), and a bounded log of delivery attempts per hook; one contract suite
 * (`config-repository-hooks.contract.ts`) that every adapter runs.
 *
 * A hook holds no queue: its `cursor` is the id of the last entry of the one log of changes it is done
 * with, and the delivery worker reads the log after it. With several instances one delivers per hook at a
 * time: it holds the hook's lease (`claim`), and only the lease holder may move the cursor (`advance`).
 */
import type { HookDelivery, HookEvent } from '@linkconfig/shared';

/** Where a hook stands in the log, and how its current event is going. */
export interface HookProgress {
  /** The id of the last log entry delivered or passed over. */
  readonly cursor: number;
  /** Failed attempts at the entry after the cursor. */
  readonly attempts: number;
  /** When the first of those attempts failed (ISO 8601); `null`: not failing. */
  readonly failingSince: string | null;
  /** The next attempt is due then (ms since the epoch). */
  readonly nextAt: number;
  /** What the last failed attempt got. */
  readonly lastError: string | null;
}

/** One stored hook, as every adapter keeps it. */
export interface StoredHook extends HookProgress {
  readonly id: string;
  readonly url: string;
  readonly events: readonly HookEvent[];
  /** Config-name patterns (`*` matches any run of characters). */
  readonly configs: readonly string[];
  /**
   * The signing secret. It must be kept as it is to sign (an HMAC needs the key itself, unlike a bearer
   * secret that a digest can check), so it is stored in clear in the database, and left out of backups.
   * `null`: a hook restored from a backup, which delivers nothing until it is made again.
   */
  readonly secret: string | null;
  readonly createdAt: string;
}

/** A claim of hooks with events to deliver. */
export interface HookClaim {
  /** The claiming instance (a random id per process). */
  readonly owner: string;
  /** Now, ms: hooks whose next attempt is due by then may be claimed. */
  readonly now: number;
  /** The lease ends then (ms): afterwards another instance may claim the hook. */
  readonly until: number;
  /** The log's latest id: only hooks whose cursor is below it have anything to do. */
  readonly head: number;
  /** Most hooks claimed. */
  readonly limit: number;
}

/** A delivery attempt as stored, with its hook. */
export interface StoredDelivery extends HookDelivery {
  readonly hookId: string;
}

/** Storage of hooks and their delivery logs. */
export interface HookStore {
  /** Stores a new hook; rejects when its id is taken. */
  insert(hook: StoredHook): Promise<void>;
  /** Every hook, oldest first (ties by id). */
  list(): Promise<StoredHook[]>;
  /**
   * Whether any stored hook has a secret (only those deliver, see `claim`): one cheap read, so a worker
   * that finds none may pass over writes for a moment without a claim each.
   */
  anyDeliverable(): Promise<boolean>;
  /** The hook with this id, or `null`. */
  get(id: string): Promise<StoredHook | null>;
  /** Deletes a hook and its delivery log; `false` when no hook has this id. */
  remove(id: string): Promise<boolean>;
  /**
   * Leases to `claim.owner` until `claim.until` the hooks with entries after their cursor (`cursor <
   * head`), a secret, and an attempt due (`nextAt <= now`), whose lease is free, ended, or the owner's own;
   * earliest due first.
   */
  claim(claim: HookClaim): Promise<StoredHook[]>;
  /**
   * Stores a hook's progress while `lease.owner` holds its lease (`lease.release`: and ends the lease). `false` when
   * the lease is no longer the owner's (it ran out and another instance took it) or the hook is gone:
   * nothing is stored then.
   */
  advance(
    id: string,
    progress: HookProgress,
    lease: { readonly owner: string; readonly release: boolean },
  ): Promise<boolean>;
  /** Appends delivery attempts, and keeps only the newest `keep` of each hook. */
  record(deliveries: readonly StoredDelivery[], keep: number): Promise<void>;
  /** Up to `limit` delivery attempts of a hook, newest first. */
  deliveries(id: string, limit: number): Promise<HookDelivery[]>;
  /** Stores these hooks as they are, replacing hooks of the same id (restoring a backup). */
  putAll(hooks: readonly StoredHook[]): Promise<void>;
}

/** A hook's row as SQL adapters read and write it (snake case; lists as JSON arrays). */
export interface HookRow {
  readonly id: string;
  readonly url: string;
  readonly events: string;
  readonly configs: string;
  readonly secret: string | null;
  readonly created_at: string;
  readonly cursor: number | string;
  readonly attempts: number;
  readonly failing_since: string | null;
  readonly next_at: number | string;
  readonly last_error: string | null;
}

/** The columns of {@link HookRow}, in order. */
export const HOOK_COLUMNS =
  'id, url, events, configs, secret, created_at, cursor, attempts, failing_since, next_at, last_error';

/** A row read back as a hook (PostgreSQL answers `bigint` as text). */
export function hookOfRow(row: HookRow): StoredHook {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as HookEvent[],
    configs: JSON.parse(row.configs) as string[],
    secret: row.secret,
    createdAt: row.created_at,
    cursor: Number(row.cursor),
    attempts: Number(row.attempts),
    failingSince: row.failing_since,
    nextAt: Number(row.next_at),
    lastError: row.last_error,
  };
}

/** A hook's values in {@link HOOK_COLUMNS} order. */
export function hookValues(hook: StoredHook): unknown[] {
  return [
    hook.id,
    hook.url,
    JSON.stringify(hook.events),
    JSON.stringify(hook.configs),
    hook.secret,
    hook.createdAt,
    hook.cursor,
    hook.attempts,
    hook.failingSince,
    hook.nextAt,
    hook.lastError,
  ];
}

/** A delivery row as SQL adapters read it. */
export interface DeliveryRow {
  readonly event_id: number | string;
  readonly type: string;
  readonly attempt: number;
  readonly at: string;
  readonly status: number | null;
  readonly error: string | null;
  readonly duration_ms: number;
}

/** The columns of a delivery row after its hook id, in order. */
export const DELIVERY_COLUMNS =
  'event_id, type, attempt, at, status, error, duration_ms';

export function deliveryOfRow(row: DeliveryRow): HookDelivery {
  return {
    eventId: Number(row.event_id),
    type: row.type,
    attempt: Number(row.attempt),
    at: row.at,
    status: row.status === null ? null : Number(row.status),
    error: row.error,
    durationMs: Number(row.duration_ms),
  };
}

/** A delivery's values: its hook id, then {@link DELIVERY_COLUMNS} order. */
export function deliveryValues(d: StoredDelivery): unknown[] {
  return [
    d.hookId,
    d.eventId,
    d.type,
    d.attempt,
    d.at,
    d.status,
    d.error,
    d.durationMs,
  ];
}
