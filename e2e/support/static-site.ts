/**
 * A website on its own origin for the Alap e2e test (e2e/tests/alap-site.spec.ts): a tiny static server
 * on a loopback port, serving Alap's own browser bundles (`../shared/reference/alap-web/`, see its
 * README), a page that reads a published config with `createRemoteStore`, and a page that loads it with
 * the server's `embed.js`, both under a strict Content-Security-Policy (scripts only from the site and
 * the API, nothing inline, no eval).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from './server.js';

/** Where Alap's bundles are: `ALAP_WEB_DIR`, else `shared/reference/alap-web` beside the checkout. */
export function alapWebDir(): string {
  const candidates = [
    process.env['ALAP_WEB_DIR'],
    resolve(REPO_ROOT, '../shared/reference/alap-web'),
    // A worktree one level further down (wt/NAME) has the same folder two levels up.
    resolve(REPO_ROOT, '../../shared/reference/alap-web'),
  ].filter((dir): dir is string => dir !== undefined);
  const found = candidates.find((dir) => existsSync(join(dir, 'alap.iife.js')));
  if (found === undefined) {
    throw new Error(
      `Alap's browser bundles are missing (looked in ${candidates.join(', ')}); set ALAP_WEB_DIR`,
    );
  }
  return found;
}

/** A running site. */
export interface StaticSite {
  /** `http://127.0.0.1:<port>`: the site's origin. */
  readonly origin: string;
  /** The page reading `config` through `createRemoteStore({ baseUrl: api + '/published' })`. */
  remotePage(config: string): string;
  /** The page loading `config` through `<script src=".../published/embed.js" data-config data-live>`. */
  readonly embedPage: string;
  close(): Promise<void>;
}

const page = (body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Site</title>` +
  `<script src="/alap.iife.js"></script></head><body data-state="loading">` +
  `<p>Bridges: <alap-link query=".nyc + .bridge">NYC bridges</alap-link></p>${body}</body></html>`;

/**
 * Starts a site on a free loopback port that reads the service at `api`; `embed` names the config the
 * embed page loads, polling every `live` seconds.
 */
export async function startStaticSite(
  api: string,
  embed: { config: string; live: number },
): Promise<StaticSite> {
  const alap = alapWebDir();
  const here = join(import.meta.dirname, 'alap-site');
  const js = (file: string) => ({
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(file),
  });
  const files = new Map<string, { type: string; body: Buffer | string }>([
    ['/alap.iife.js', js(join(alap, 'alap.iife.js'))],
    ['/alap-storage.js', js(join(alap, 'alap-storage.js'))],
    ['/remote.js', js(join(here, 'remote.js'))],
    ['/embed-events.js', js(join(here, 'embed-events.js'))],
    [
      '/remote.html',
      {
        type: 'text/html; charset=utf-8',
        body: page('<script type="module" src="/remote.js"></script>'),
      },
    ],
    [
      '/embed.html',
      {
        type: 'text/html; charset=utf-8',
        body: page(
          `<script src="/embed-events.js" defer></script>` +
            `<script src="${api}/published/embed.js" data-config="${embed.config}" data-live="${embed.live}" defer></script>`,
        ),
      },
    ],
  ]);
  // Alap's components style their shadow roots with <style> elements, hence style-src 'unsafe-inline'.
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${api}`,
    `connect-src ${api}`,
    "style-src 'unsafe-inline'",
  ].join('; ');
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    const file = files.get(path);
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    response
      .writeHead(200, {
        'Content-Type': file.type,
        'Content-Security-Policy': csp,
        'Cache-Control': 'no-store',
      })
      .end(file.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    remotePage: (config) =>
      `${origin}/remote.html?${new URLSearchParams({ api, config })}`,
    embedPage: `${origin}/embed.html`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
