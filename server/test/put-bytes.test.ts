import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConfigRepository } from '../src/storage/config-repository.js';
import { Utf8Text, textOf } from '../src/storage/stored-text.js';
import { createTestApp } from './test-app.js';
import type { TestApp } from './test-app.js';
import { postgresDatabases, sqliteDatabases } from './test-databases.js';
import type { TestDatabase } from './test-databases.js';

/**
 * A PUT's body reaches the repository with the bytes it was decoded from (`Utf8Text`), which SQLite stores
 * as they are. Each request goes to an app that hands the repository those bytes and to one whose
 * repository is given the text alone (which SQLite encodes once itself, `sqlite-write-binding.test.ts`):
 * answers, stored texts and history must not differ.
 */

/** A repository that records what each write was given, and the same one given the text only. */
function wrapped(repo: ConfigRepository): {
  withBytes: ConfigRepository;
  textOnly: (other: ConfigRepository) => ConfigRepository;
  given: boolean[];
} {
  const given: boolean[] = [];
  return {
    withBytes: {
      ...repo,
      put: (name, json, options) => {
        given.push(json instanceof Utf8Text);
        return repo.put(name, json, options);
      },
    },
    textOnly: (other) => ({
      ...other,
      put: (name, json, options) => other.put(name, textOf(json), options),
    }),
    given,
  };
}

/** Labels with every UTF-8 width, lone surrogates (JSON escapes them), quotes and backslashes. */
const label = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom(
    'é',
    '😀',
    '\ud800',
    '\udfff x',
    '"\\/',
    '\u2028\u0000',
    'ı İ',
  ),
);

/** A config's text: its links' labels, spaced or not, some characters written as `\u` escapes. */
const configText = fc
  .record({
    labels: fc.array(label, { minLength: 1, maxLength: 5 }),
    spaced: fc.boolean(),
    escaped: fc.boolean(),
  })
  .map(({ labels, spaced, escaped }) => {
    const allLinks = Object.fromEntries(
      labels.map((text, i) => [
        `l${i}`,
        { url: `https://example.com/${i}`, label: text },
      ]),
    );
    const text = JSON.stringify(
      { allLinks, settings: {} },
      null,
      spaced ? 2 : 0,
    );
    // `é` as `\u00e9`: the same value, another text, stored as sent.
    return escaped ? text.replaceAll('é', '\\u00e9') : text;
  });

/** One PUT: its text, and how it is sent. */
const put = fc.record({
  text: configText,
  /** An edit of the previous text's first label (read as an edit of the version held), or a new text. */
  edit: fc.option(label, { nil: undefined }),
  gzip: fc.boolean(),
  bom: fc.boolean(),
});

/** Sends `text` as a PUT of `name`: compressed or not, with a byte order mark or not. */
function send(
  t: TestApp,
  text: string,
  how: { gzip: boolean; bom: boolean },
): Promise<Response> {
  const plain = Buffer.from(`${how.bom ? '\ufeff' : ''}${text}`, 'utf8');
  const body = how.gzip ? gzipSync(plain) : plain;
  return t.request('/configs/n', {
    method: 'PUT',
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': String(body.byteLength),
      ...(how.gzip ? { 'Content-Encoding': 'gzip' } : {}),
    },
    body: new Uint8Array(body),
  });
}

/** What the database holds of `n`: the stored text, and each revision's size and text. */
async function held(t: TestApp) {
  const stored = await t.repository.get('n');
  const revisions = await t.repository.revisions('n', { from: 1, to: 100 });
  return {
    json: stored?.json,
    revisions: revisions.map((r) => [r.meta.rev, r.meta.size, r.json]),
  };
}

describe.each([
  ['sqlite', sqliteDatabases],
  ['postgres', postgresDatabases],
] as const)('a PUT body stored from its bytes (%s)', (kind, databases) => {
  const dbs: TestDatabase = databases();
  afterAll(() => dbs.cleanup());

  it('stores, answers and records what storing the text alone does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(put, { minLength: 1, maxLength: 4 }),
        async (puts) => {
          const [a, b] = [await dbs.create(), await dbs.create()];
          const repos = wrapped(a);
          const bytes = createTestApp({ repository: repos.withBytes });
          const text = createTestApp({ repository: repos.textOnly(b) });
          let previous: string | undefined;
          for (const step of puts) {
            const body =
              step.edit !== undefined && previous !== undefined
                ? previous.replace(
                    /"label": ?"(?:[^"\\]|\\.)*"/,
                    `"label":${JSON.stringify(step.edit)}`,
                  )
                : step.text;
            const [one, other] = [
              await send(bytes, body, step),
              await send(text, body, step),
            ];
            expect([one.status, await one.text()]).toEqual([
              other.status,
              await other.text(),
            ]);
            expect(one.status).toBe(step.bom ? 400 : 204);
            if (one.status === 204) {
              previous = body;
              expect((await a.get('n'))?.json).toBe(body);
            }
            expect(await held(bytes)).toEqual(await held(text));
          }
          // Every body that reached the repository came with its bytes.
          expect(repos.given.every(Boolean)).toBe(true);
          await Promise.all([a.close(), b.close()]);
        },
      ),
      { numRuns: kind === 'sqlite' ? 25 : 10 },
    );
  });
});
