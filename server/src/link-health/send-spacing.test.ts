/**
 * Politeness as the host sees it when connections are slow to set up (issue 31): the checker's requests,
 * through the real outbound module, to a test server on 127.0.0.1 whose connections each take their own
 * time to open (a wait on the test clock before the socket is opened). The host records the clock at each
 * arrival: two arrivals are a second apart at least, however late a request left after its turn came.
 */
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkerHarness } from '../../test/link-check-harness.js';
import { startLoopbackServer } from '../../test/loopback-server.js';
import type { LoopbackServer } from '../../test/loopback-server.js';
import { Outbound, OutboundAllowList } from '../outbound/index.js';
import type { SocketOpener } from '../outbound/index.js';
import { ManualClock } from '../test-clock.js';
import { pacedSend } from './check-url.js';
import { HostPacer, POLITE, SPACING_MARGIN_MS } from './host-pacer.js';

/** How long each new connection takes to open, ms of the test clock, in turn. */
const CONNECT_MS = [700, 1300, 0, 450, 0, 900];
const LINKS = 6;

let site: LoopbackServer;
const clock = new ManualClock();
/** Clock time and path of each request as the host saw it arrive, and how many were open with it. */
const arrivals: { at: number; path: string; open: number }[] = [];
let open = 0;

beforeAll(async () => {
  site = await startLoopbackServer((request, response) => {
    open++;
    arrivals.push({ at: clock.now(), path: request.path, open });
    response.once('close', () => open--);
    setImmediate(() => response.writeHead(200).end());
  });
});
afterAll(() => site.close());

/**
 * An outbound module reaching only the site, whose new connections each wait their turn's time of
 * `delays` (test clock) before the socket is opened; `waiting` counts those waiting.
 */
function slowOutbound(delays: readonly number[]): {
  outbound: Outbound;
  waiting: () => number;
} {
  let opened = 0;
  let waiting = 0;
  const opener: SocketOpener = (target, callback) => {
    const delay = delays[opened++ % delays.length] ?? 0;
    waiting++;
    void clock.sleep(delay).then(() => {
      waiting--;
      const socket: Socket = connect({
        host: target.hostname,
        port: Number(target.port),
      });
      socket.once('connect', () => callback(null, socket));
      socket.once('error', (error) => callback(error, null));
    });
  };
  const outbound = new Outbound({
    allow: new OutboundAllowList([`127.0.0.1:${site.port}`]),
    userAgent: 'linkconfig/1.0 (test; +mailto:test@example.invalid)',
    connector: opener,
  });
  return { outbound, waiting: () => waiting };
}

/** The clock time between each arrival and the one before it. */
function gapsOf(seen: readonly { at: number }[]): number[] {
  return seen.slice(1).map((a, i) => a.at - (seen[i]?.at ?? 0));
}

describe('spacing measured at the host', () => {
  it('keeps a second between arrivals when connections take varying time to open', async () => {
    arrivals.length = 0;
    const { outbound, waiting } = slowOutbound(CONNECT_MS);
    const h = checkerHarness([site], { clock, outbound });
    const urls = Array.from(
      { length: LINKS },
      (_, i) => `${site.origin}/page/${i}`,
    );
    await h.putLinks('slow', urls);
    let done = false;
    const checked: string[] = [];
    const running = h.checker
      .runFor(urls, (record) => checked.push(record.state))
      .finally(() => {
        done = true;
      });
    // The clock moves only while every request let go is waiting for its connection or none is out:
    // a request on its way (socket to arrival) is seen by the host at the clock time it left.
    await clock.runUntil(() => done, {
      canAdvance: () => h.checker.inFlight === waiting(),
    });
    await running;
    await outbound.close();
    await h.close();

    expect(checked).toEqual(Array.from({ length: LINKS }, () => 'ok'));
    expect(arrivals.map((a) => a.path)).toEqual([
      '/robots.txt',
      ...urls.map((u) => new URL(u).pathname),
    ]);
    const gaps = gapsOf(arrivals);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000);
    expect(Math.max(...arrivals.map((a) => a.open))).toBeLessThanOrEqual(2);
    // And no more than needed: the second (and the margin) after the previous request left,
    // plus the time the next one's own connection took to open.
    expect(Math.max(...gaps)).toBeLessThanOrEqual(
      POLITE.spacingMs + SPACING_MARGIN_MS + Math.max(...CONNECT_MS),
    );
  });

  it('keeps a second between requests to one host let go two at a time, the first slow to connect', async () => {
    arrivals.length = 0;
    const { outbound, waiting } = slowOutbound([1300, 0, 0, 0]);
    const pacer = new HostPacer(clock);
    const send = pacedSend({ outbound, pacer });
    const paths = ['/a', '/b', '/c', '/d'];
    let done = false;
    const all = Promise.all(
      paths.map((path) =>
        send({
          url: `${site.origin}${path}`,
          method: 'HEAD',
          purpose: 'link-check',
          maxBytes: 0,
        }),
      ),
    ).finally(() => {
      done = true;
    });
    await clock.runUntil(() => done, {
      canAdvance: () => pacer.inFlight === waiting(),
    });
    const answers = await all;
    await outbound.close();

    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(arrivals.map((a) => a.path).sort()).toEqual(paths);
    expect(Math.min(...gapsOf(arrivals))).toBeGreaterThanOrEqual(1000);
  });
});
