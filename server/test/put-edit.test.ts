import { LIMITS } from '@linkconfig/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReceivedJson } from '../src/received-json.js';
import { createTestApp } from './test-app.js';
import type { TestApp } from './test-app.js';

/** A config of 40 links, written with spacing (not what `JSON.stringify` writes for it). */
function baseConfig(): Record<string, unknown> {
  const allLinks: Record<string, unknown> = {};
  for (let i = 0; i < 40; i++) {
    allLinks[`l${i}`] = {
      url: `https://example.com/${i}`,
      label: `Link ${i}`,
      tags: ['a', `t${i % 3}`],
    };
  }
  return { allLinks, macros: { m: { linkItems: '.t1' } }, settings: {} };
}

const base = JSON.stringify(baseConfig(), null, 2);

/** Texts PUT in turn, each over the one before: edits of some links, refusals, and other changes. */
const steps: [string, (text: string) => string][] = [
  ['one label', (t) => t.replace('"Link 7"', '"Saved 7"')],
  ['the same text again', (t) => t],
  [
    'the same value, other spacing',
    (t) => t.replace('"Saved 7"', ' "Saved 7"'),
  ],
  [
    'a link added last',
    (t) =>
      t.replace(
        /\n {2}\},\n {2}"macros"/,
        ',\n    "new": {"url": "https://n.example"}\n  },\n  "macros"',
      ),
  ],
  ['a link removed', (t) => t.replace(/"l12": \{[^}]*\},\n {4}/, '')],
  ['a key renamed', (t) => t.replace('"l20":', '"renamed":')],
  [
    'two links changed',
    (t) => t.replace('"Link 30"', '"x"').replace('"Link 31"', '"y"'),
  ],
  ['a repeated key', (t) => t.replace('"l25":', '"l5":')],
  ['a number too large', (t) => t.replace('"Link 9"', '1e400')],
  [
    'a link without its url',
    (t) => t.replace('"url": "https://example.com/9"', '"href": "x"'),
  ],
  ['a prototype key', (t) => t.replace('"label": "Link 9"', '"__proto__": {}')],
  [
    'nested too deep',
    (t) =>
      t.replace(
        '"Link 9"',
        `${'['.repeat(LIMITS.nestingMax)}${']'.repeat(LIMITS.nestingMax)}`,
      ),
  ],
  [
    'nested as deep as allowed',
    (t) =>
      t.replace(
        '"Link 9"',
        `${'['.repeat(LIMITS.nestingMax - 3)}${']'.repeat(LIMITS.nestingMax - 3)}`,
      ),
  ],
  ['not JSON', (t) => t.replace('"Link 11"', '"Link 11')],
  [
    'the settings',
    (t) => t.replace('"settings": {}', '"settings": {"theme": "dark"}'),
  ],
  [
    'a label after the settings changed',
    (t) => t.replace('"Link 10"', '"Saved 10"'),
  ],
];

/** What a client sees of a name: the stored config and the history's summaries. */
async function seen(t: TestApp) {
  const config = await t.json('/configs/n');
  const history = await t.json<{ revisions: { summary: unknown }[] }>(
    '/configs/n/history',
  );
  return { config, summaries: history.body.revisions.map((r) => r.summary) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a PUT read as an edit of the version held', () => {
  it('stores, refuses and records exactly what a PUT read in full does', async () => {
    const edited = vi.spyOn(ReceivedJson, 'edited');
    // `full` holds no version (a cache of one byte): every PUT there is read, checked and diffed in full.
    const apps = {
      edit: createTestApp(),
      full: createTestApp({ cacheBytes: 1 }),
    };
    let text = base;
    for (const app of Object.values(apps))
      expect((await app.put('n', text)).status).toBe(204);
    const asEdits: string[] = [];
    for (const [title, step] of steps) {
      const next = step(text);
      const calls = edited.mock.calls.length;
      const edit = await apps.edit.put('n', next);
      if (edited.mock.calls.length > calls) asEdits.push(title);
      const full = await apps.full.put('n', next);
      expect([title, edit.status, await edit.text()]).toEqual([
        title,
        full.status,
        await full.text(),
      ]);
      expect(await seen(apps.edit)).toEqual(await seen(apps.full));
      if (edit.status === 204) text = next;
    }
    // The stored text is the one sent, spacing included.
    const stored = await apps.edit.repository.get('n');
    expect(stored?.json).toBe(text);
    expect(asEdits).toEqual([
      'one label',
      'the same text again',
      'the same value, other spacing',
      'a link added last',
      'a link removed',
      'a key renamed',
      'two links changed',
      'nested as deep as allowed',
      'a label after the settings changed',
    ]);
  });

  it('is not tried over a version read from storage, or without one', async () => {
    const t = createTestApp();
    expect(t.services.configs.editTemplate('n')).toBeUndefined();
    expect((await t.put('n', base)).status).toBe(204);
    expect(t.services.configs.editTemplate('n')?.text).toBe(base);
    // Another server's process: the same storage, nothing written by it yet.
    const other = createTestApp({ repository: t.repository });
    expect((await other.request('/configs/n')).status).toBe(200);
    expect(other.services.configs.editTemplate('n')).toBeUndefined();
  });
});
