import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { EMBED_SCRIPT_FILE } from '../src/http/routes/embed-route.js';
import { createTestApp } from './test-app.js';
import type { TestApp } from './test-app.js';

const SOURCE = readFileSync(EMBED_SCRIPT_FILE, 'utf8');
const SERVER = 'http://localhost';

const menu = (label: string) => ({
  allLinks: {
    bk: { label, url: 'https://bk.example/', tags: ['nyc', 'bridge'] },
  },
});

/** What the script did to the page's Alap, in order. */
type Call = [string, unknown, unknown];

/**
 * Runs the script as a page would (its own `<script src>` and `data-*` attributes, `window.Alap`), in a
 * fresh V8 context whose `fetch` goes to the test app; the interval it sets is returned, to be run by hand.
 */
function runEmbed(t: TestApp, attributes: Record<string, string>) {
  const calls: Call[] = [];
  const events: { type: string; detail: unknown }[] = [];
  const requests: { url: string; init: unknown }[] = [];
  let tick: (() => void) | undefined;
  const script = new EventTarget() as EventTarget & Record<string, unknown>;
  Object.assign(script, {
    src: `${SERVER}/published/embed.js`,
    getAttribute: (name: string) => attributes[name] ?? null,
    hasAttribute: (name: string) => name in attributes,
  });
  script.addEventListener('linkconfig:config', (e) =>
    events.push({ type: e.type, detail: (e as CustomEvent).detail }),
  );
  script.addEventListener('linkconfig:error', (e) =>
    events.push({ type: e.type, detail: (e as CustomEvent).detail }),
  );
  const alap = {
    registerConfig: (config: unknown, name: unknown) =>
      calls.push(['registerConfig', config, name]),
    updateRegisteredConfig: (config: unknown, name: unknown) =>
      calls.push(['updateRegisteredConfig', config, name]),
    defineAlapLink: () => undefined,
  };
  const window: Record<string, unknown> = { Alap: alap };
  Object.assign(window, {
    window,
    document: { currentScript: script, visibilityState: 'visible' },
    fetch: (url: string, init: unknown) => {
      requests.push({ url, init });
      return t.app.request(url, init as RequestInit);
    },
    URL,
    CustomEvent,
    Error,
    String,
    Number,
    Math,
    setInterval: (fn: () => void) => {
      tick = fn;
      return 1;
    },
  });
  runInNewContext(SOURCE, window);
  return {
    calls,
    events,
    requests,
    tick: () => tick?.(),
    hasTimer: () => tick !== undefined,
  };
}

describe('GET /published/embed.js', () => {
  it('is small: at most 2 KB gzipped, no eval, nothing that builds code from text', () => {
    const gzipped = gzipSync(Buffer.from(SOURCE), { level: 9 }).byteLength;
    console.log(
      `embed.js: ${Buffer.byteLength(SOURCE)} bytes, ${gzipped} bytes gzipped`,
    );
    expect(gzipped).toBeLessThanOrEqual(2048);
    expect(SOURCE).not.toMatch(/\beval\s*\(|new\s+Function\b|innerHTML/);
  });

  it('is served as a cacheable static script with its ETag and 304', async () => {
    const t = createTestApp();
    const got = await t.request('/published/embed.js');
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe(
      'text/javascript; charset=utf-8',
    );
    expect(got.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await got.text()).toBe(SOURCE);
    const etag = got.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await t.request('/published/embed.js', {
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    const zipped = await t.request('/published/embed.js', {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    const post = await t.request('/published/embed.js', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});

describe('embed.js on a page', () => {
  it('registers the published config, then updates it only when a read brings another version', async () => {
    const t = createTestApp();
    await t.put('site-a/menu', menu('Published'));
    await t.services.publish.publish('site-a/menu', {});
    await t.put('site-a/menu', menu('Draft'));

    const page = runEmbed(t, {
      'data-config': 'site-a/menu',
      'data-live': '30',
      'data-name': 'menu',
    });
    await vi.waitFor(() => expect(page.calls).toHaveLength(1));
    expect(page.requests[0]?.url).toBe(
      `${SERVER}/published/configs/site-a%2Fmenu`,
    );
    // Revalidated through the browser's cache (a conditional request), no cookies.
    expect(page.requests[0]?.init).toEqual({
      cache: 'no-cache',
      credentials: 'omit',
    });
    expect(page.calls[0]).toEqual([
      'registerConfig',
      menu('Published'),
      'menu',
    ]);
    expect(page.events[0]).toMatchObject({ type: 'linkconfig:config' });

    // Unchanged: nothing registered again.
    page.tick();
    await vi.waitFor(() => expect(page.requests).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(page.calls).toHaveLength(1);

    // Published again: the next read updates the registered config.
    await t.services.publish.publish('site-a/menu', {});
    page.tick();
    await vi.waitFor(() => expect(page.calls).toHaveLength(2));
    expect(page.calls[1]).toEqual([
      'updateRegisteredConfig',
      menu('Draft'),
      'menu',
    ]);
  });

  it('reads once without data-live, and tells the page when the config is not there', async () => {
    const t = createTestApp();
    const page = runEmbed(t, { 'data-config': 'site-a/menu' });
    await vi.waitFor(() => expect(page.events).toHaveLength(1));
    expect(page.events[0]).toEqual({
      type: 'linkconfig:error',
      detail: { name: 'site-a/menu', error: 'Error: HTTP 404' },
    });
    expect(page.calls).toEqual([]);
    expect(page.hasTimer()).toBe(false);
  });
});
