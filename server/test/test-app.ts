import { pino } from 'pino';
import type { Hono } from 'hono';
import { createApp } from '../src/http/app.js';
import type { AppOptions } from '../src/http/app.js';
import { createServices } from '../src/services/services.js';
import type { Services } from '../src/services/services.js';
import { createMemoryConfigRepository } from '../src/storage/memory/memory-config-repository.js';
import type { ConfigRepository } from '../src/storage/config-repository.js';

/** An app over a fresh repository, with a controllable clock and helpers for JSON requests. */
export interface TestApp {
  readonly app: Hono;
  readonly services: Services;
  readonly repository: ConfigRepository;
  /** Moves the clock used for timestamps. */
  setNow(iso: string): void;
  request(path: string, init?: RequestInit): Promise<Response>;
  put(
    name: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<Response>;
  post(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<Response>;
  json<T = unknown>(
    path: string,
    init?: RequestInit,
  ): Promise<{ status: number; body: T }>;
}

/** Options of {@link createTestApp}. */
export type TestAppOptions = Partial<
  Omit<AppOptions, 'services' | 'logger'>
> & {
  readonly repository?: ConfigRepository;
  /** `CACHE_BYTES` of the services (default 256 MiB). */
  readonly cacheBytes?: number;
};

/** Builds an in-process app (no sockets); requests go through `app.request`. */
export function createTestApp(options: TestAppOptions = {}): TestApp {
  let now = new Date('2026-03-01T10:00:00.000Z');
  const repository = options.repository ?? createMemoryConfigRepository();
  const services = createServices({
    repository,
    now: () => now,
    ...(options.cacheBytes === undefined
      ? {}
      : { cacheBytes: options.cacheBytes }),
  });
  const app = createApp({
    ...options,
    services,
    logger: pino({ level: 'silent' }),
  });
  const base = 'http://localhost';
  const request = async (path: string, init?: RequestInit): Promise<Response> =>
    app.request(`${base}${path}`, init);
  const send =
    (method: string) =>
    (path: string, body: unknown, headers: Record<string, string> = {}) =>
      request(path, {
        method,
        headers: { 'Content-Type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
  return {
    app,
    services,
    repository,
    setNow: (iso) => {
      now = new Date(iso);
    },
    request,
    put: (name, body, headers) =>
      send('PUT')(`/configs/${encodeURIComponent(name)}`, body, headers),
    post: send('POST'),
    json: async <T>(path: string, init?: RequestInit) => {
      const response = await request(path, init);
      const text = await response.text();
      return {
        status: response.status,
        body: (text === '' ? undefined : JSON.parse(text)) as T,
      };
    },
  };
}

/** A small config with tags, a blocked URL and integer-like ids. */
export function sampleConfig(): Record<string, unknown> {
  return {
    allLinks: {
      b2: { label: 'Bravo Two', url: 'https://b2.example', tags: ['x'] },
      '10': {
        label: 'Ten',
        url: 'https://ten.example',
        tags: ['x', 'y'],
        description: 'number ten',
      },
      '9': { label: 'Nine', url: 'https://nine.example', tags: ['y'] },
      bad: {
        label: 'Bad',
        url: 'JavaScript:alert(1)',
        image: 'data:text/html,x',
        thumbnail: 'vbscript:x',
        tags: ['x'],
        description: 'javascript:kept',
      },
      '007': { label: 'Bond', url: 'https://bond.example', tags: ['spy'] },
    },
    macros: { xs: { linkItems: '.x' } },
    searchPatterns: { nums: 'n' },
    settings: { theme: 'dark' },
    extra: { z: 1, a: 2 },
  };
}

/** A body without an implied Content-Type (fetch gives string bodies `text/plain`). */
export const utf8 = (text: string): Uint8Array<ArrayBuffer> =>
  new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
