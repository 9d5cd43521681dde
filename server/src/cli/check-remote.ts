/**
 * `linkconfig check --server URL --key K`: the check of a running server (one with `LINK_CHECK=on`),
 * over REST. It asks the server to check each config's links now (`POST /configs/:name/links/check`),
 * then reads their health (`GET /configs/:name/links/health`) every few seconds until every checkable
 * link was checked since, or the time given is up. The server's checker does the requests, with its
 * politeness, leases and confirm rule: nothing is checked twice because a CI job asked.
 */
import type {
  ConfigLinkHealthOutput,
  LinkHealthEntry,
} from '@linkconfig/shared';
import { SYSTEM_CLOCK } from '../clock.js';
import type { Clock } from '../clock.js';
import { UsageError } from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { progressOn } from './progress.js';
import { callServer, failure } from './server-call.js';

/** How often the health is read again while the server checks. */
export const POLL_MS = 2000;

/** What a link that is never checked says (docs/link-health.md). */
const NOT_HTTP = 'not an http(s) URL';

/** Where and how long. */
export interface RemoteCheck {
  readonly server: string;
  readonly key?: string | undefined;
  /** How long to wait for the checks at most (ms). */
  readonly waitMs: number;
}

/** The reports, and the links still waiting for their check when the time was up. */
export interface RemoteReport {
  readonly reports: ConfigLinkHealthOutput[];
  readonly waiting: number;
}

/** Asks the server to check `names` (every config it lets the key read when none) and waits for the results. */
export async function checkOnServer(
  names: readonly string[],
  target: RemoteCheck,
  io: CliIo,
): Promise<RemoteReport> {
  const call = caller(target);
  const chosen =
    names.length > 0 ? [...names] : await call<string[]>('GET', '/configs');
  const before = new Map<string, ConfigLinkHealthOutput>();
  for (const name of chosen) before.set(name, await health(call, name));
  for (const name of chosen)
    await call('POST', `/configs/${encodeURIComponent(name)}/links/check`);
  const clock: Clock = io.clock ?? SYSTEM_CLOCK;
  const until = clock.now() + target.waitMs;
  const total = countWaiting(before, new Map());
  const progress = progressOn(io, { lines: false });
  progress.start('checking', total);
  let now = before;
  let waiting: number;
  for (;;) {
    await clock.sleep(POLL_MS);
    const next = new Map<string, ConfigLinkHealthOutput>();
    for (const name of chosen) next.set(name, await health(call, name));
    now = next;
    waiting = countWaiting(before, now);
    progress.update(total - waiting, `${total - waiting}/${total} links`);
    if (waiting === 0 || clock.now() >= until) break;
  }
  progress.stop();
  return { reports: chosen.map((name) => now.get(name)!), waiting };
}

/** The links of `after` not checked since `before` (every checkable link when `after` is empty). */
function countWaiting(
  before: ReadonlyMap<string, ConfigLinkHealthOutput>,
  after: ReadonlyMap<string, ConfigLinkHealthOutput>,
): number {
  let waiting = 0;
  for (const [name, earlier] of before) {
    const was = new Map(earlier.links.map((link) => [link.id, link]));
    for (const link of (after.get(name) ?? earlier).links) {
      if (!checkedSince(link, was.get(link.id), after.has(name))) waiting++;
    }
  }
  return waiting;
}

function checkedSince(
  link: LinkHealthEntry,
  earlier: LinkHealthEntry | undefined,
  read: boolean,
): boolean {
  if (link.reason === NOT_HTTP) return true;
  if (!read || link.checkedAt === null) return false;
  return earlier === undefined || earlier.checkedAt !== link.checkedAt;
}

async function health(
  call: Caller,
  name: string,
): Promise<ConfigLinkHealthOutput> {
  return call<ConfigLinkHealthOutput>(
    'GET',
    `/configs/${encodeURIComponent(name)}/links/health`,
  );
}

type Caller = <T>(method: string, path: string) => Promise<T>;

/** JSON calls to the server with the key; a refusal is an error in the server's words. */
function caller(target: RemoteCheck): Caller {
  return async <T>(method: string, path: string): Promise<T> => {
    const response = await callServer(target, path, { method });
    if (!response.ok) {
      const error = await failure(response, `${method} ${path}`);
      // A key that may not, a name that is not there, a checker that is off: the caller's to fix (exit 2).
      if ([401, 403, 404, 409].includes(response.status))
        throw new UsageError(error.message);
      throw error;
    }
    return (await response.json()) as T;
  };
}
