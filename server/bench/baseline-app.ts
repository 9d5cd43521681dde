/**
 * The baseline of the HTTP benchmark: the service as a plain Hono + SQLite server would build it, in the
 * way the issue describes the reference servers. It is the yardstick our server is measured against in
 * the same run on the same machine, so it is kept honest and simple, not slowed down on purpose:
 *
 * - better-sqlite3, WAL, `synchronous=NORMAL`; one table of names and JSON texts;
 * - no caches: every request reads the stored configs it needs and `JSON.parse`s them;
 * - `/search` walks the configs in name order, parses each, tests its links in order and stops as soon as
 *   it has `limit` results (so a search that matches nothing parses every config);
 * - `/query` and `/cherry-pick` prepare the config(s) with the shared engine per request and resolve;
 * - `PUT` reads the body with `c.req.json()`, checks it with `validateLinkConfig`, `JSON.stringify`s it
 *   and upserts it;
 * - URLs in responses go through the shared sanitizer, as the contract asks of every implementation.
 *
 * Request parsing reuses the shared zod inputs, so both servers accept and refuse the same requests.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import type { Context } from 'hono';
import {
  CherryPickInputSchema,
  isPlainObject,
  overlayConfigs,
  prepareConfig,
  QueryInputSchema,
  resolve,
  sanitizeUrl,
  SearchInputSchema,
  toCherryPick,
  validateLinkConfig,
} from '@linkconfig/shared';
import type { SearchField, SearchOutput } from '@linkconfig/shared';

/** The baseline app and how to release its database. */
export interface BaselineApp {
  app: Hono;
  close(): void;
}

/** Thrown inside a handler to answer `status` with `{ error }`. */
class Refusal extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

type StoredLink = Record<string, unknown>;
type Json = Record<string, unknown>;

/** Link fields that hold URLs. */
const URL_FIELDS = ['url', 'image', 'thumbnail'] as const;

/** A copy of a link with its URLs sanitized. */
function sanitizeLink(link: StoredLink): StoredLink {
  const out = { ...link };
  for (const field of URL_FIELDS) {
    const value = out[field];
    if (typeof value === 'string') out[field] = sanitizeUrl(value);
  }
  return out;
}

/** The texts of one search field of a link. */
function fieldTexts(
  id: string,
  link: StoredLink,
  field: SearchField,
): unknown[] {
  switch (field) {
    case 'id':
      return [id];
    case 'tags':
      return Array.isArray(link['tags']) ? link['tags'] : [];
    case 'label':
    case 'url':
    case 'description':
      return [link[field]];
  }
}

/** The path's `sqlite:` prefix removed (the benchmark passes the same `DATABASE_URL` to both servers). */
export function sqlitePath(databaseUrl: string): string {
  return databaseUrl.replace(/^sqlite:(?:\/\/)?/, '');
}

/** Builds the baseline app on the SQLite file at `path` (created when missing). */
export function createBaselineApp(path: string): BaselineApp {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS configs (
    name TEXT PRIMARY KEY NOT NULL,
    json TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`);
  const selectNames = db
    .prepare<[], { name: string }>('SELECT name FROM configs ORDER BY name')
    .pluck();
  const selectRow = db.prepare<
    [string],
    { json: string; created_at: string; updated_at: string }
  >('SELECT json, created_at, updated_at FROM configs WHERE name = ?');
  const upsert = db.prepare(
    `INSERT INTO configs (name, json, created_at, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM configs WHERE name = ?');

  const names = (): string[] => selectNames.all() as unknown as string[];
  /** The stored config, parsed; `null` when there is none. */
  const load = (name: string): Json | null => {
    const row = selectRow.get(name);
    return row === undefined ? null : (JSON.parse(row.json) as Json);
  };
  const loadOr404 = (name: string): Json => {
    const config = load(name);
    if (config === null) throw new Refusal(404, `config "${name}" not found`);
    return config;
  };
  const checkInline = (config: Json, where: string): Json => {
    const checked = validateLinkConfig(config);
    if (!checked.ok) throw new Refusal(400, `${where}: ${checked.error}`);
    return config;
  };
  const body = async (c: Context): Promise<unknown> => {
    try {
      return await c.req.json();
    } catch {
      throw new Refusal(400, 'the body is not valid JSON');
    }
  };
  const compile = (pattern: string, what: string): RegExp => {
    try {
      return new RegExp(pattern, 'i');
    } catch {
      throw new Refusal(400, `${what} is not a valid regular expression`);
    }
  };

  const app = new Hono();
  app.onError((error, c) => {
    if (error instanceof Refusal)
      return c.json({ error: error.message }, error.status);
    return c.json({ error: 'internal error' }, 500);
  });

  app.get('/healthz', (c) => c.json({ ok: true }));

  app.get('/configs', (c) => c.json(names()));

  app.get('/configs/:name', (c) => {
    const row = selectRow.get(c.req.param('name'));
    if (row === undefined) throw new Refusal(404, 'config not found');
    const config = JSON.parse(row.json) as Json;
    if (isPlainObject(config['allLinks'])) {
      const links = config['allLinks'];
      for (const id of Object.keys(links)) {
        const link = links[id];
        if (isPlainObject(link)) links[id] = sanitizeLink(link);
      }
    }
    return c.json({
      config,
      meta: { createdAt: row.created_at, updatedAt: row.updated_at },
    });
  });

  app.put('/configs/:name', async (c) => {
    const config = await body(c);
    const checked = validateLinkConfig(config);
    if (!checked.ok) throw new Refusal(400, checked.error);
    const now = new Date().toISOString();
    upsert.run(c.req.param('name'), JSON.stringify(config), now, now);
    return c.body(null, 204);
  });

  app.delete('/configs/:name', (c) => {
    remove.run(c.req.param('name'));
    return c.body(null, 204);
  });

  app.get('/search', (c) => {
    const parsed = SearchInputSchema.safeParse(c.req.query());
    if (!parsed.success) {
      throw new Refusal(
        400,
        parsed.error.issues[0]?.message ?? 'invalid search',
      );
    }
    const input = parsed.data;
    const q = input.q?.toLowerCase();
    const regex =
      input.regex === undefined ? undefined : compile(input.regex, 'regex');
    const only =
      input.config === undefined ? undefined : compile(input.config, 'config');
    // q and regex each need one field that matches (not necessarily the same one).
    const hit = (
      id: string,
      link: StoredLink,
      test: (text: string) => boolean,
    ) =>
      input.fields.some((field) =>
        fieldTexts(id, link, field).some(
          (t) => typeof t === 'string' && test(t),
        ),
      );
    const output: SearchOutput = {
      results: [],
      configsSearched: 0,
      linksScanned: 0,
    };
    for (const name of names()) {
      if (output.results.length >= input.limit) break;
      if (only !== undefined && !only.test(name)) continue;
      const config = load(name);
      if (config === null || !isPlainObject(config['allLinks'])) continue;
      output.configsSearched++;
      const links = config['allLinks'];
      for (const id of Object.keys(links)) {
        const link = links[id];
        if (!isPlainObject(link) || typeof link['url'] !== 'string') continue;
        output.linksScanned++;
        const tags = Array.isArray(link['tags']) ? link['tags'] : [];
        if (input.tag !== undefined && !tags.includes(input.tag)) continue;
        if (
          q !== undefined &&
          !hit(id, link, (t) => t.toLowerCase().includes(q))
        )
          continue;
        if (regex !== undefined && !hit(id, link, (t) => regex.test(t)))
          continue;
        output.results.push({
          configName: name,
          id,
          link: sanitizeLink(link) as SearchOutput['results'][number]['link'],
        });
        if (output.results.length >= input.limit) break;
      }
    }
    return c.json(output);
  });

  app.post('/query', async (c) => {
    const parsed = QueryInputSchema.safeParse(await body(c));
    if (!parsed.success) {
      throw new Refusal(
        400,
        parsed.error.issues[0]?.message ?? 'invalid query',
      );
    }
    const input = parsed.data;
    let config: unknown;
    if (input.configs === undefined) {
      config = loadOr404(input.configName ?? 'demo');
    } else {
      // Every item merges in order, a name as often as it is listed; unknown names are skipped.
      const parts: Json[] = [];
      for (const [i, item] of input.configs.entries()) {
        if (typeof item !== 'string')
          parts.push(checkInline(item, `configs[${i}]`));
        else {
          const stored = load(item);
          if (stored !== null) parts.push(stored);
        }
      }
      if (parts.length === 0)
        throw new Refusal(404, 'none of the configs was found');
      config = parts.length === 1 ? parts[0] : overlayConfigs(parts);
    }
    const results = resolve(prepareConfig(config), input.expression, {
      now: Date.now(),
    });
    return c.json({ results });
  });

  app.post('/cherry-pick', async (c) => {
    const parsed = CherryPickInputSchema.safeParse(await body(c));
    if (!parsed.success) {
      throw new Refusal(
        400,
        parsed.error.issues[0]?.message ?? 'invalid request',
      );
    }
    const { source, expression } = parsed.data;
    const config =
      typeof source === 'string'
        ? loadOr404(source)
        : checkInline(source, 'source');
    const results = resolve(prepareConfig(config), expression, {
      now: Date.now(),
    });
    return c.json({ allLinks: toCherryPick(results) });
  });

  return { app, close: () => db.close() };
}
