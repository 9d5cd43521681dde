/**
 * The one model of the page's status: whether and how the server can be used, what waits to be sent
 * (and for how long), whether live updates arrive, conflicts, refused changes and locks. The status
 * line takes its words and its one colour from here, so no part of it tells a story another part
 * contradicts (no "all changes are on the server" while offline, in conflict or locked out; no "live
 * updates connected" while offline). Pure: the clock comes in as `now`.
 */
import { writeRefusalOf } from '../model/key-access.js';
import { ACCESS } from '@linkconfig/web-client';
import type { AppState } from './state.js';

export type Tone = 'ok' | 'warn' | 'bad';

export interface Connection {
  text: string;
  tone: Tone;
  reachable: 'yes' | 'no' | 'unknown';
  /** Offer the token settings. */
  token: boolean;
}

/** Whether and how the server can be used now, most pressing reason first. */
export function connection(state: AppState): Connection {
  const { access } = state;
  const anyAccess = (value: string) =>
    access.read === value || access.write === value;
  if (!state.online)
    return {
      text: 'This browser is offline. Keep working: changes stay in this browser and are sent when it is back online.',
      tone: 'bad',
      reachable: 'no',
      token: false,
    };
  if (anyAccess(ACCESS.needsToken))
    return {
      text: 'The server needs a token.',
      tone: 'bad',
      reachable: 'yes',
      token: true,
    };
  if (anyAccess(ACCESS.tokenRefused))
    return {
      text: 'The server did not accept the token.',
      tone: 'bad',
      reachable: 'yes',
      token: true,
    };
  if (isReadOnly(state))
    return {
      text: 'The token may only read: saving to the server needs the write token.',
      tone: 'bad',
      reachable: 'yes',
      token: true,
    };
  if (state.reachable === false)
    return {
      text: 'The server cannot be reached. Keep working: changes are sent when it is back.',
      tone: 'bad',
      reachable: 'no',
      token: false,
    };
  if (state.hybrid.paused)
    return {
      text: 'The server refused the credentials, so sending changes is paused.',
      tone: 'bad',
      reachable: 'yes',
      token: true,
    };
  if (state.reachable === true)
    return {
      text: 'Connected to the server.',
      tone: 'ok',
      reachable: 'yes',
      token: false,
    };
  return {
    text: 'Checking the server…',
    tone: 'warn',
    reachable: 'unknown',
    token: false,
  };
}

/** What the live-update state means, in plain words. */
export function liveText(live: AppState['hybrid']['live']): string {
  switch (live) {
    case 'connected':
      return 'Live updates connected: changes made elsewhere show at once.';
    case 'connecting':
      return 'Live updates connecting…';
    case 'disconnected':
      return 'Live updates reconnecting…';
    case 'off':
      return 'Live updates off: the page checks for changes every few seconds.';
  }
}

/** What the status line says, part by part, and its one tone. */
export interface StatusModel {
  /** The colour of the whole line: the most pressing part decides. */
  tone: Tone;
  server: Connection;
  pending: {
    count: number;
    text: string;
    /** How long the oldest change has waited, in words (shown, not read out on every tick). */
    age: string | null;
  };
  live: { state: AppState['hybrid']['live'] | 'paused'; text: string };
  conflicts: number;
  /** The token may only read (known from the server's refusal): editing is off. */
  readOnly: boolean;
}

/**
 * Whether editing is off because the token may only read: the server said its scope is `read`
 * (`GET /access`), refused a write with it (403), or said so before (remembered for this token across
 * reloads, until a write succeeds).
 */
export function isReadOnly(state: AppState): boolean {
  // What the server said the key may do decides, per name; a refusal of one name says nothing of others.
  if (state.grant !== null) return state.grant.scope === 'read';
  const write = state.access.write;
  return (
    write === ACCESS.readOnly ||
    (write === ACCESS.unknown && state.readOnlyRemembered)
  );
}

/**
 * Why editing config `name` is off, in words, or null when it is on: what the server said the key may
 * do (`GET /access`) does not cover writing `name`, or the token may only read (see
 * {@link isReadOnly}). The one place the editor and the create form ask, before any request.
 */
export function writeRefusal(state: AppState, name: string): string | null {
  if (state.grant !== null) return writeRefusalOf(state.grant, name);
  return isReadOnly(state)
    ? 'Editing is off: the server said this token may only read.'
    : null;
}

/**
 * Why a config named `name` may not be created with this key, or null when it may (or it exists: the
 * create form then opens it).
 */
export function createRefusal(state: AppState, name: string): string | null {
  if (state.grant === null || name === '') return null;
  if (state.configs.some((item) => item.name === name)) return null;
  const refusal = writeRefusalOf(state.grant, name);
  return refusal === null
    ? null
    : refusal.replace(/^Editing is off: /, 'Not allowed: ');
}

/** The Tone that is more pressing. */
function worse(a: Tone, b: Tone): Tone {
  const rank: Record<Tone, number> = { ok: 0, warn: 1, bad: 2 };
  return rank[a] >= rank[b] ? a : b;
}

/** The page's status at `now` (ms since the epoch). */
export function statusModel(state: AppState, now: number): StatusModel {
  const server = connection(state);
  const away = server.reachable === 'no';
  const readOnly = isReadOnly(state);
  const locked =
    state.access.read === ACCESS.needsToken ||
    state.access.read === ACCESS.tokenRefused;
  const { hybrid } = state;
  const count = hybrid.pending;
  const conflicts = hybrid.conflicts;
  const oldest = oldestPending(hybrid.names);
  const age = count > 0 && oldest !== null ? waitedFor(now - oldest) : null;
  let pendingText: string;
  if (count > 0)
    pendingText = `${count} ${count === 1 ? 'change waits' : 'changes wait'} to be sent to the server${
      readOnly ? ', which this token may not do' : ''
    }.`;
  else if (conflicts > 0)
    pendingText = 'Changes in conflict stay here until you choose.';
  else if (away || locked || state.reachable !== true)
    pendingText = 'Nothing waits to be sent.';
  else if (state.open?.dirty === true)
    // The store holds no unsent write, but the editor holds edits not given to it yet: the header
    // must not say "all" while the editor says "unsaved".
    pendingText = `Everything saved is on the server; “${state.open.name}” has unsaved edits.`;
  else pendingText = 'All changes are on the server.';
  const live =
    away || locked
      ? {
          state: 'paused' as const,
          text: 'Live updates paused until the server can be used.',
        }
      : { state: hybrid.live, text: liveText(hybrid.live) };
  let tone: Tone = server.tone === 'bad' && away ? 'warn' : server.tone;
  if (count > 0) tone = worse(tone, 'warn');
  if (conflicts > 0 || hybrid.deadLetters > 0 || readOnly)
    tone = worse(tone, 'bad');
  if (!away && live.state !== 'connected' && live.state !== 'off')
    tone = worse(tone, 'warn');
  return {
    tone,
    server,
    pending: { count, text: pendingText, age },
    live,
    conflicts,
    readOnly,
  };
}

/** When the oldest pending write was queued (ms), or null. */
function oldestPending(names: AppState['hybrid']['names']): number | null {
  let oldest: number | null = null;
  for (const facts of Object.values(names)) {
    const since = facts.pending ? Date.parse(facts.pending.since) : NaN;
    if (Number.isFinite(since) && (oldest === null || since < oldest))
      oldest = since;
  }
  return oldest;
}

/** A wait in words: "for a few seconds", "for 3 min", "for 2 h". */
export function waitedFor(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return 'the oldest for under a minute';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `the oldest for ${minutes} min`;
  return `the oldest for ${Math.floor(minutes / 60)} h`;
}
