import { createHash, timingSafeEqual } from 'node:crypto';
import { NamePatterns, scopeCovers } from '@linkconfig/shared';
import type { Author, KeyScope } from '@linkconfig/shared';
import type { StoredKey } from './storage/key-repository.js';

/** The tokens and anonymous access a server is configured with (all optional). */
export interface AuthSettings {
  /** `API_TOKEN`: a key with admin scope on every name. */
  readonly apiToken?: string | undefined;
  /** `READ_TOKEN`: a key that reads every name. */
  readonly readToken?: string | undefined;
  /**
   * `ANONYMOUS_READ`: the names a request without a key may read, as patterns (`[]`: none). Default:
   * every name (`*`), or none when `READ_TOKEN` is set (reads then need a token, as before keys).
   */
  readonly anonymousRead?: readonly string[] | undefined;
}

/** What a request presented: nothing, a configured token, a stored key, or a bearer that opens nothing. */
export type PresentedToken =
  'none' | 'api' | 'read' | 'key' | 'invalid' | 'expired' | 'revoked';

/**
 * What a caller may do at all (per name, see {@link RequestAuth.canRead} and `canWrite`): a key scope, in
 * the order of `KEY_SCOPES`.
 */
export type Access = KeyScope;

/**
 * The caller's rights, derived from its `Authorization` header once per request. Reads and writes are
 * per config name: a name the caller may not read must look exactly like a missing one.
 */
export interface RequestAuth {
  /** Whether the caller may read this config. */
  canRead(name: string): boolean;
  /** Whether the caller may write (put, delete, patch, restore) this config. */
  canWrite(name: string): boolean;
  /** Whether the caller may call procedures that need this access at all (their names checked apart). */
  may(need: Access): boolean;
  token(): PresentedToken;
  /** Who the caller is, as history records it; `null` when no key or token names it. */
  author(): Author | null;
  /** The key a rate-limit budget belongs to: the key's id, `null` without a valid key. */
  clientId(): string | null;
  /**
   * Equal for callers who may read the same names: whole answers kept for reuse are keyed by it, so an
   * answer is never handed to a caller who may read less.
   */
  readView(): string;
  /** Scope and patterns, for a caller asking what it may do (`null` scope: nothing). */
  grant(): Grant;
}

/** What a caller was granted. */
export interface Grant {
  /** `null`: neither read nor write (only names anonymous reading opens, if any). */
  readonly scope: KeyScope | null;
  readonly configs: readonly string[];
  /** Names anyone may read without a key (`ANONYMOUS_READ`), which a key adds to. */
  readonly anonymousRead: readonly string[];
}

/** The per-request facts the rule needs beyond the header: whether any key exists, and the key found. */
export interface Presented {
  /** Whether the server is open: no `API_TOKEN` and no stored key. */
  readonly open: boolean;
  /** The stored key whose secret the header carried, when it did. */
  readonly key?: StoredKey | null;
  /** The clock, for expiry (ms). */
  readonly now: number;
}

const digest = (value: string): Buffer =>
  createHash('sha256').update(value, 'utf8').digest();

/** The bearer of an `Authorization` header (`undefined`: none, `null`: not a bearer). */
export function bearerOf(
  header: string | undefined,
): string | undefined | null {
  if (header === undefined || header === '') return undefined;
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1] ?? null;
}

const AUTHORS = {
  api: { id: 'API_TOKEN', label: 'API_TOKEN' },
  read: { id: 'READ_TOKEN', label: 'READ_TOKEN' },
} as const;

/**
 * Builds the per-request access rule. Configured tokens are compared in constant time (on SHA-256
 * digests, so lengths leak nothing either); stored keys are found by their digest before this runs
 * (`keys/key-lookup.ts`) and handed in as {@link Presented.key}. Without `API_TOKEN` and without any
 * stored key everything but key management is open, as before keys existed.
 */
export function createAuthenticator(
  settings: AuthSettings,
): (authorization: string | undefined, presented: Presented) => RequestAuth {
  const api = settings.apiToken ? digest(settings.apiToken) : undefined;
  const read = settings.readToken ? digest(settings.readToken) : undefined;
  const anonymous: readonly string[] =
    settings.anonymousRead ?? (read === undefined ? ['*'] : []);
  const classify = (
    header: string | undefined,
    presented: Presented,
  ): PresentedToken => {
    const token = bearerOf(header);
    if (token === undefined) return 'none';
    if (token === null) return 'invalid';
    const given = digest(token);
    if (api !== undefined && timingSafeEqual(api, given)) return 'api';
    if (read !== undefined && timingSafeEqual(read, given)) return 'read';
    const key = presented.key;
    if (key === undefined || key === null) return 'invalid';
    if (key.revokedAt !== null) return 'revoked';
    if (key.expiresAt !== null && Date.parse(key.expiresAt) <= presented.now) {
      return 'expired';
    }
    return 'key';
  };
  // Every request without a key, on an open server or not, gets the same access: built once for each
  // when it reads every name (no names to remember per request), not once per request.
  const keyless: Partial<Record<'open' | 'closed', RequestAuth>> = {};
  return (header, presented) => {
    // An open server ignores what is sent: nothing could be checked against.
    const token = presented.open ? 'none' : classify(header, presented);
    if (token !== 'none') return accessOf(token, presented);
    const kind = presented.open ? 'open' : 'closed';
    const kept = keyless[kind];
    if (kept !== undefined) return kept;
    const auth = accessOf(token, presented);
    if (auth.readView() === '*') keyless[kind] = auth;
    return auth;
  };

  function accessOf(token: PresentedToken, presented: Presented): RequestAuth {
    const key = token === 'key' ? (presented.key ?? null) : null;
    const grant: Grant =
      token === 'api'
        ? { scope: 'admin', configs: ['*'], anonymousRead: anonymous }
        : token === 'read'
          ? { scope: 'read', configs: ['*'], anonymousRead: anonymous }
          : key !== null
            ? {
                scope: key.scope,
                configs: key.configs,
                anonymousRead: anonymous,
              }
            : presented.open && token === 'none'
              ? // Open: everything but key management (publishing included).
                { scope: 'publish', configs: ['*'], anonymousRead: ['*'] }
              : {
                  scope: null,
                  configs: [],
                  // A bearer that opens nothing is refused everywhere (401), not read as anonymous.
                  anonymousRead: token === 'none' ? anonymous : [],
                };
    const reads = [
      ...new Set([...grant.anonymousRead, ...grant.configs]),
    ].sort();
    const readView = reads.includes('*') ? '*' : reads.join('\u0000');
    // Each pattern is read once per request, and each name matched once (a page of history or a list
    // asks for the same names again): linear in the patterns' and names' lengths.
    const readable = memoized(new NamePatterns(reads));
    // Read only by writes: built on a write's first check.
    let writes: NamePatterns | undefined;
    const writable = (): NamePatterns =>
      (writes ??= new NamePatterns(
        grant.scope === null || !scopeCovers(grant.scope, 'write')
          ? []
          : grant.configs,
      ));
    return {
      token: () => token,
      grant: () => grant,
      canRead: readable,
      canWrite: (name) => writable().matches(name),
      may: (need) =>
        need === 'read'
          ? grant.scope !== null || grant.anonymousRead.length > 0
          : grant.scope !== null && scopeCovers(grant.scope, need),
      author: () =>
        key !== null
          ? { id: key.id, label: key.label }
          : token === 'api' || token === 'read'
            ? AUTHORS[token]
            : null,
      clientId: () =>
        key !== null
          ? key.id
          : token === 'api' || token === 'read'
            ? AUTHORS[token].id
            : null,
      readView: () => readView,
    };
  }
}

/** Most answers {@link memoized} keeps (a stream's access lives as long as the stream). */
const MEMO_NAMES = 4096;

/** Whether the patterns match a name, each name matched once (the answers kept for the request). */
function memoized(patterns: NamePatterns): (name: string) => boolean {
  if (patterns.matchesAll) return () => true;
  const answers = new Map<string, boolean>();
  return (name) => {
    let answer = answers.get(name);
    if (answer === undefined) {
      answer = patterns.matches(name);
      if (answers.size >= MEMO_NAMES) answers.clear();
      answers.set(name, answer);
    }
    return answer;
  };
}

/** Who may read `/published` (`PUBLISHED_READ`): anyone (`public`, the default), or callers a key lets read. */
export type PublishedRead = 'public' | 'key';

/**
 * The access of a `/published` request under `PUBLISHED_READ=public`: it reads every published name,
 * whatever it presented (a published menu ships in web pages), and may do nothing else. Its rate-limit
 * budget stays the caller's.
 */
export function publicReader(auth: RequestAuth): RequestAuth {
  return {
    canRead: () => true,
    canWrite: () => false,
    may: (need) => need === 'read',
    token: () => 'none',
    author: () => null,
    clientId: () => auth.clientId(),
    readView: () => '*',
    grant: () => ({ scope: null, configs: [], anonymousRead: ['*'] }),
  };
}
