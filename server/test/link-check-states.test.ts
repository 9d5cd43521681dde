/**
 * The link checker against a test server on 127.0.0.1 made for it (issue 31, "How it is checked"): every
 * state with its evidence, the confirm rule driven by a manual clock, HEAD refused then GET, a 5 GB body,
 * 429, robots.txt, redirects into loopback and localhost refused, and a server that never answers.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, realTick } from '../src/test-clock.js';
import { checkerHarness } from './link-check-harness.js';
import { startLoopbackServer } from './loopback-server.js';
import type { LoopbackServer, SeenRequest } from './loopback-server.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FIVE_GB = 5 * 1024 ** 3;

let site: LoopbackServer;
/** Requests of `/flap` so far: odd ones answer 500, even ones 200. */
let flaps = 0;
let goneStatus = 404;
let hugeWritten = 0;

function redirect(response: ServerResponse, status: number, to: string): void {
  response.writeHead(status, { Location: to });
  response.end();
}

function streamHuge(response: ServerResponse): void {
  response.writeHead(200, { 'Content-Length': String(FIVE_GB) });
  const chunk = Buffer.alloc(64 * 1024, 120);
  const pump = (): void => {
    while (hugeWritten < FIVE_GB && !response.destroyed) {
      hugeWritten += chunk.length;
      if (!response.write(chunk)) {
        response.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

function answer(request: SeenRequest, response: ServerResponse): void {
  const head = request.method === 'HEAD';
  switch (request.path) {
    case '/robots.txt':
      response.end(
        'User-agent: linkconfig\nDisallow: /private\n\nUser-agent: *\nDisallow:\n',
      );
      return;
    case '/moved':
      return redirect(response, 301, '/moved-2');
    case '/moved-2':
      return redirect(response, 308, '/final');
    case '/temp':
      return redirect(response, 302, '/final');
    case '/gone':
      response.writeHead(goneStatus).end();
      return;
    case '/gone-410':
      response.writeHead(410).end();
      return;
    case '/flap':
      flaps++;
      response.writeHead(flaps % 2 === 1 ? 500 : 200).end();
      return;
    case '/no-head':
      response.writeHead(head ? 405 : 200).end(head ? undefined : 'ok');
      return;
    case '/huge':
      if (head) response.writeHead(405).end();
      else streamHuge(response);
      return;
    case '/busy':
      response.writeHead(429, { 'Retry-After': '120' }).end();
      return;
    case '/to-loopback':
      return redirect(response, 302, `http://127.0.0.2:${site.port}/ok`);
    case '/to-localhost':
      return redirect(response, 302, `http://localhost:${site.port}/ok`);
    case '/slow':
      return; // never answers
    default:
      response.writeHead(200).end(head ? undefined : 'fine');
  }
}

beforeAll(async () => {
  site = await startLoopbackServer(answer);
});
afterAll(() => site.close());

const url = (path: string): string => `${site.origin}${path}`;
const seen = (path: string, method?: string): number =>
  site.requests.filter(
    (r) => r.path === path && (method === undefined || r.method === method),
  ).length;

describe('link checker states', () => {
  it('finds each state with its evidence, and confirms a failure only a day later', async () => {
    const h = checkerHarness([site]);
    const t0 = h.clock.now();
    const paths = [
      '/ok',
      '/moved',
      '/temp',
      '/gone',
      '/gone-410',
      '/no-head',
      '/huge',
      '/busy',
      '/private/page',
      '/to-loopback',
      '/to-localhost',
    ];
    await h.putLinks('site', paths.map(url));
    await h.run(paths.map(url));
    const state = async (path: string) => h.record(url(path));

    expect(await state('/ok')).toMatchObject({
      state: 'ok',
      status: 200,
      finalUrl: url('/ok'),
    });
    expect(await state('/moved')).toMatchObject({
      state: 'redirected',
      status: 200,
      finalUrl: url('/final'),
      reason: 'moved permanently',
    });
    expect(await state('/temp')).toMatchObject({
      state: 'ok',
      finalUrl: url('/final'),
    });
    // HEAD refused (405), then GET: ok.
    expect(await state('/no-head')).toMatchObject({ state: 'ok', status: 200 });
    expect(seen('/no-head', 'HEAD')).toBe(1);
    expect(seen('/no-head', 'GET')).toBe(1);
    // A 5 GB answer: ok, and the server could write little more than socket buffers hold.
    expect(await state('/huge')).toMatchObject({ state: 'ok', status: 200 });
    expect(hugeWritten).toBeLessThan(64 * 1024 ** 2);
    // 429: asked again after Retry-After, not counted as a failure.
    const busy = await state('/busy');
    expect(busy).toMatchObject({
      state: 'unchecked',
      status: 429,
      failingSince: null,
      failures: 0,
    });
    expect((busy?.nextAt ?? 0) - Date.parse(busy?.checkedAt ?? '')).toBe(
      120_000,
    );
    // robots.txt disallows the checker: blocked, and the page itself is never asked.
    expect(await state('/private/page')).toMatchObject({
      state: 'blocked',
      reason: 'robots.txt',
    });
    expect(seen('/private/page')).toBe(0);
    expect(seen('/robots.txt')).toBe(1);
    // Redirects into loopback or localhost: refused by the guard, never followed.
    expect(await state('/to-loopback')).toMatchObject({
      state: 'blocked',
      reason: 'refused: loopback',
      finalUrl: `http://127.0.0.2:${site.port}/ok`,
    });
    expect(await state('/to-localhost')).toMatchObject({
      state: 'blocked',
      reason: 'refused: localhost',
    });
    expect(seen('/ok')).toBe(1);
    // 404 and 410: failing, not yet broken.
    for (const path of ['/gone', '/gone-410']) {
      const record = await state(path);
      expect(record).toMatchObject({ state: 'unchecked', failures: 1 });
      // Checked within the first round's seconds (pacing spaces the requests a second apart).
      const failing = Date.parse(record?.failingSince ?? '');
      expect(failing - t0).toBeLessThan(60_000);
      expect(record?.failingSince).toBe(record?.checkedAt);
      expect(record?.nextAt).toBe(failing + DAY);
    }
    expect(h.events).toEqual([]);

    // An hour later (a check on demand): two failures, but not a day apart.
    await h.clock.advance(HOUR);
    await h.run([url('/gone'), url('/busy')]);
    expect(await state('/gone')).toMatchObject({
      state: 'unchecked',
      failures: 2,
    });
    expect(await state('/busy')).toMatchObject({
      state: 'unchecked',
      failures: 0,
    });

    // A day after the first failure: confirmed, told once.
    await h.clock.advance(DAY - HOUR);
    await h.run([url('/gone'), url('/gone-410')]);
    const broken = await state('/gone');
    expect(broken).toMatchObject({
      state: 'broken',
      status: 404,
      reason: 'HTTP 404',
    });
    expect(broken?.since).toBe(broken?.checkedAt);
    expect(Date.parse(broken?.since ?? '') - t0).toBeGreaterThanOrEqual(DAY);
    expect(await state('/gone-410')).toMatchObject({
      state: 'broken',
      status: 410,
    });
    expect(h.events.map((e) => [e.type, e.url, e.configs])).toEqual([
      ['link-broken', url('/gone'), ['site']],
      ['link-broken', url('/gone-410'), ['site']],
    ]);

    // Still broken a week later: no second event.
    await h.clock.advance(7 * DAY);
    await h.run([url('/gone')]);
    expect(h.events).toHaveLength(2);

    // It works again: one success clears it, told once.
    goneStatus = 200;
    await h.clock.advance(HOUR);
    await h.run([url('/gone')]);
    expect(await state('/gone')).toMatchObject({
      state: 'ok',
      failingSince: null,
      failures: 0,
    });
    expect(h.events.at(-1)).toMatchObject({
      type: 'link-recovered',
      url: url('/gone'),
      state: 'ok',
    });
    await h.run([url('/gone')]);
    expect(h.events).toHaveLength(3);
    await h.close();
  });

  it('never calls a flapping link broken while a success comes between its failures', async () => {
    const h = checkerHarness([site]);
    await h.putLinks('flappy', [url('/flap')]);
    const failuresSeen: number[] = [];
    // Ten checks a day apart: 500, 200, 500, 200, …
    for (let day = 0; day < 10; day++) {
      await h.run([url('/flap')]);
      const record = await h.record(url('/flap'));
      if (record?.status === 500) failuresSeen.push(day);
      expect(record?.state).not.toBe('broken');
      await h.clock.advance(DAY);
    }
    expect(failuresSeen).toHaveLength(5);
    // Each of those 500s would have been a "broken" without the confirm rule; each was cleared.
    expect(h.checker.stats.falseAlarmsPrevented).toBe(5);
    expect(h.events).toEqual([]);
    await h.close();
  });

  it('calls a server that never answers unreachable (timeout), once confirmed', async () => {
    const outboundClock = new ManualClock();
    const h = checkerHarness([site], { outboundClock });
    await h.putLinks('slow', [url('/slow')]);
    const runTimedOut = async (): Promise<void> => {
      const before = seen('/slow');
      const running = h.run([url('/slow')]);
      while (seen('/slow') === before) await realTick();
      await outboundClock.advance(10_000);
      await running;
    };
    await runTimedOut();
    expect(await h.record(url('/slow'))).toMatchObject({
      state: 'unchecked',
      reason: 'timeout',
      failures: 1,
    });
    await h.clock.advance(DAY);
    await runTimedOut();
    expect(await h.record(url('/slow'))).toMatchObject({
      state: 'unreachable',
      reason: 'timeout',
      status: null,
    });
    expect(h.events.map((e) => e.type)).toEqual(['link-broken']);
    await h.close();
  });
});
