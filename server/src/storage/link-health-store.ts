/**
 * Link health in storage (docs/link-health.md): one record per distinct URL, beside the configs in the same
 * database (`ConfigRepository.linkHealth`), with one contract suite (`config-repository-link-health.contract.ts`)
 * that every adapter runs. A check is made under a lease held in the database, so with several instances
 * each due URL is checked by one of them, once per round; the hosts an instance holds leases on are its own
 * until they end, so the politeness limits hold across instances too.
 */
import type { LinkHealthRecord, LinkState } from '@linkconfig/shared';

/** A claim of due URLs: who claims, until when, and how many. */
export interface LinkClaim {
  /** The claiming instance (a random id per process). */
  readonly owner: string;
  /** Now, ms since the epoch: URLs due by then may be claimed. */
  readonly now: number;
  /** The lease ends then (ms): afterwards another instance may claim the URL again. */
  readonly until: number;
  /** Most URLs claimed. */
  readonly limit: number;
  /** Most URLs of one host claimed (so one host's many links do not fill the claim). */
  readonly perHost: number;
  /** Hosts whose URLs are not claimed this time (the claimer has enough of them in hand). */
  readonly busyHosts?: readonly string[];
  /** Only these URLs may be claimed (a run for some configs); absent: any. */
  readonly only?: readonly string[];
}

/** Storage of link health. */
export interface LinkHealthStore {
  /** Every URL tracked. */
  urls(): Promise<string[]>;
  /** The records of these URLs (those tracked; any order). */
  get(urls: readonly string[]): Promise<LinkHealthRecord[]>;
  /** The records in any of `states`. */
  withStates(states: readonly string[]): Promise<LinkHealthRecord[]>;
  /**
   * Starts tracking `added` (records `unchecked`, due at `now`; URLs tracked already are left as they
   * are) and stops tracking `gone`.
   */
  track(
    added: readonly string[],
    gone: readonly string[],
    now: number,
  ): Promise<void>;
  /**
   * Makes these tracked URLs due at `at` (a check on demand); returns how many there were. A lease on
   * one ends: the check under way was asked before the demand, so its result is not stored, and the URL
   * is checked again.
   */
  schedule(urls: readonly string[], at: number): Promise<number>;
  /**
   * Leases URLs due by `claim.now` to `claim.owner` until `claim.until`: none with a live lease, none of a
   * host another owner holds a live lease on, at most `perHost` per host, earliest due first.
   */
  claim(claim: LinkClaim): Promise<LinkHealthRecord[]>;
  /**
   * Stores the results of checks made under `owner`'s leases, in one transaction, and ends the leases.
   * Answers the URLs stored: a result whose lease is no longer `owner`'s (it ran out and another instance
   * took the URL, or the URL was asked for again) or whose URL is no longer tracked is not stored.
   */
  complete(
    records: readonly LinkHealthRecord[],
    owner: string,
  ): Promise<Set<string>>;
  /** How many URLs are in each state (those with none left out). */
  counts(): Promise<Partial<Record<LinkState, number>>>;
  /** Every record, by URL (backups). */
  all(): Promise<LinkHealthRecord[]>;
  /** Stores these records as they are, replacing records of the same URL (restoring a backup). */
  putAll(records: readonly LinkHealthRecord[]): Promise<void>;
}

/**
 * The host a URL's lease and politeness are counted by: its host and port as the URL names them (lower
 * case; a default port left out), so `https://a.example/x` and `https://a.example:443/y` are one host.
 */
export function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
}

/** The record of a URL nobody has checked yet, due at `now`. */
export function uncheckedRecord(url: string, now: number): LinkHealthRecord {
  return {
    url,
    state: 'unchecked',
    since: null,
    checkedAt: null,
    status: null,
    finalUrl: null,
    reason: null,
    failingSince: null,
    failures: 0,
    nextAt: now,
  };
}

/** A record's row as SQL adapters read and write it (snake case). */
export interface LinkHealthRow {
  readonly url: string;
  readonly host: string;
  readonly state: string;
  readonly since: string | null;
  readonly checked_at: string | null;
  readonly status: number | null;
  readonly final_url: string | null;
  readonly reason: string | null;
  readonly failing_since: string | null;
  readonly failures: number;
  readonly next_at: number | string;
}

/** The columns of {@link LinkHealthRow}, in order. */
export const LINK_HEALTH_COLUMNS =
  'url, host, state, since, checked_at, status, final_url, reason, failing_since, failures, next_at';

/** A row read back as a record (PostgreSQL answers `bigint` as text). */
export function recordOfRow(row: LinkHealthRow): LinkHealthRecord {
  return {
    url: row.url,
    state: row.state as LinkHealthRecord['state'],
    since: row.since,
    checkedAt: row.checked_at,
    status: row.status === null ? null : Number(row.status),
    finalUrl: row.final_url,
    reason: row.reason,
    failingSince: row.failing_since,
    failures: Number(row.failures),
    nextAt: Number(row.next_at),
  };
}

/** A record's values in {@link LINK_HEALTH_COLUMNS} order. */
export function rowValues(record: LinkHealthRecord): unknown[] {
  return [
    record.url,
    hostOf(record.url),
    record.state,
    record.since,
    record.checkedAt,
    record.status,
    record.finalUrl,
    record.reason,
    record.failingSince,
    record.failures,
    record.nextAt,
  ];
}
