import { describe, expect, it } from 'vitest';
import { createTestApp, sampleConfig } from './test-app.js';
import type { TestApp } from './test-app.js';

interface SearchBody {
  results: { configName: string; id: string; link: Record<string, unknown> }[];
  configsSearched: number;
  linksScanned: number;
}

async function seeded(): Promise<TestApp> {
  const t = createTestApp();
  await t.put('s', sampleConfig());
  await t.put('a', {
    allLinks: {
      one: {
        label: 'Coffee Shop',
        url: 'https://one.example',
        tags: ['coffee', 'x'],
        description: 'Espresso bar',
      },
      two: {
        label: 'Tea room',
        url: 'https://coffee.example/two',
        tags: ['tea'],
      },
      three: { label: 'Nothing', url: 'https://three.example', tags: ['X'] },
    },
  });
  return t;
}

const ids = (body: SearchBody): string[] =>
  body.results.map((r) => `${r.configName}:${r.id}`);

describe('GET /search', () => {
  it('finds an exact tag, configs in name order and links in catalog order', async () => {
    const t = await seeded();
    const { status, body } = await t.json<SearchBody>('/search?tag=x');
    expect(status).toBe(200);
    expect(ids(body)).toEqual(['a:one', 's:10', 's:b2', 's:bad']);
    expect(body.configsSearched).toBe(2);
  });

  it('matches q case-insensitively as a substring across all fields by default', async () => {
    const t = await seeded();
    expect(ids((await t.json<SearchBody>('/search?q=COFFEE')).body)).toEqual([
      'a:one',
      'a:two',
    ]);
    expect(
      ids((await t.json<SearchBody>('/search?q=NUMBER%20t')).body),
    ).toEqual(['s:10']);
    expect(ids((await t.json<SearchBody>('/search?q=zzzzzz')).body)).toEqual(
      [],
    );
  });

  it('restricts q and regex to the given fields', async () => {
    const t = await seeded();
    expect(
      ids((await t.json<SearchBody>('/search?q=coffee&fields=label')).body),
    ).toEqual(['a:one']);
    expect(
      ids((await t.json<SearchBody>('/search?q=coffee&fields=url')).body),
    ).toEqual(['a:two']);
    expect(
      ids((await t.json<SearchBody>('/search?q=tw&fields=id')).body),
    ).toEqual(['a:two']);
    expect(
      ids(
        (await t.json<SearchBody>('/search?q=espresso&fields=description,tags'))
          .body,
      ),
    ).toEqual(['a:one']);
    expect(
      ids((await t.json<SearchBody>('/search?q=tea&fields=tags')).body),
    ).toEqual(['a:two']);
  });

  it('runs regex case-insensitively on re2js', async () => {
    const t = await seeded();
    expect(
      ids(
        (
          await t.json<SearchBody>(
            `/search?regex=${encodeURIComponent('^t(en|ea)')}&fields=label`,
          )
        ).body,
      ),
    ).toEqual(['a:two', 's:10']);
  });

  it('requires every given criterion', async () => {
    const t = await seeded();
    expect(
      ids((await t.json<SearchBody>('/search?tag=x&q=coffee')).body),
    ).toEqual(['a:one']);
    expect(
      ids(
        (await t.json<SearchBody>('/search?tag=x&regex=^n&fields=label')).body,
      ),
    ).toEqual([]);
  });

  it('filters configs by a name pattern', async () => {
    const t = await seeded();
    const { body } = await t.json<SearchBody>('/search?tag=x&config=^S$');
    expect(ids(body)).toEqual(['s:10', 's:b2', 's:bad']);
    expect(body.configsSearched).toBe(1);
  });

  it('returns links with sanitized urls', async () => {
    const t = await seeded();
    const { body } = await t.json<SearchBody>('/search?q=bad&fields=label');
    expect(body.results[0]?.link).toEqual({
      label: 'Bad',
      url: 'about:blank',
      image: 'about:blank',
      thumbnail: 'about:blank',
      tags: ['x'],
      description: 'javascript:kept',
    });
  });

  it('applies limit, default 100 and at most 1000', async () => {
    const t = createTestApp();
    const allLinks: Record<string, unknown> = {};
    for (let i = 0; i < 1200; i++)
      allLinks[`l${i}`] = { url: `https://e/${i}`, tags: ['t'] };
    await t.put('big', { allLinks });
    expect(
      (await t.json<SearchBody>('/search?tag=t')).body.results,
    ).toHaveLength(100);
    expect(
      (await t.json<SearchBody>('/search?tag=t&limit=3')).body.results.map(
        (r) => r.id,
      ),
    ).toEqual(['l0', 'l1', 'l2']);
    expect(
      (await t.json<SearchBody>('/search?tag=t&limit=5000')).body.results,
    ).toHaveLength(1000);
  });

  it.each([
    ['', /at least one of tag, q or regex/],
    ['?q=&tag=', /at least one of tag, q or regex/],
    ['?regex=(', /regex is not a valid regular expression/],
    ['?q=a&config=[', /config is not a valid regular expression/],
    [
      '?q=a&fields=label,color',
      /^fields must list only label, url, tags, description, id \(got "color"\)$/,
    ],
    ['?q=a&limit=0', /limit must be an integer/],
    ['?q=a&limit=-3', /limit must be an integer/],
    ['?q=a&limit=abc', /limit must be an integer/],
    ['?q=a&limit=1.5', /limit must be an integer/],
    [`?regex=${'a'.repeat(1001)}`, /regex must be at most 1000 characters/],
    [
      `?q=a&config=${'a'.repeat(1001)}`,
      /config must be at most 1000 characters/,
    ],
    ['?regex=(?=x)', /regex is not a valid regular expression/],
    [
      '?regex=a%7B1,1000%7Da%7B1,1000%7Db',
      /^regex is too large to run: it compiles to 4001 steps, at most 1000 /,
    ],
    [
      '?q=a&config=x%7B1,600%7D',
      /^config is too large to run: it compiles to 1201 steps, at most 1000 /,
    ],
  ])('answers 400 for %j', async (query, message) => {
    const t = await seeded();
    const { status, body } = await t.json<{ error: string }>(`/search${query}`);
    expect(status).toBe(400);
    expect(body.error).toMatch(message);
  });

  it('treats a q holding separator characters correctly (slow path)', async () => {
    const t = createTestApp();
    await t.put('c', { allLinks: { a: { url: 'x', label: 'a\u0001b' } } });
    expect(
      ids(
        (
          await t.json<SearchBody>(
            `/search?q=${encodeURIComponent('a\u0001b')}`,
          )
        ).body,
      ),
    ).toEqual(['c:a']);
  });

  it('answers a catastrophic-backtracking pattern on long labels in linear time', async () => {
    const t = createTestApp();
    const allLinks: Record<string, unknown> = {};
    for (let i = 0; i < 200; i++)
      allLinks[`l${i}`] = { url: 'https://e', label: `${'a'.repeat(5000)}!` };
    await t.put('redos', { allLinks });
    const { status, body } = await t.json<SearchBody>(
      `/search?regex=${encodeURIComponent('^(a|a)*$')}&fields=label`,
    );
    expect(status).toBe(200);
    expect(body.results).toEqual([]);
  });

  it('sees a new version of a config immediately', async () => {
    const t = await seeded();
    expect(ids((await t.json<SearchBody>('/search?tag=tea')).body)).toEqual([
      'a:two',
    ]);
    await t.put('a', { allLinks: { four: { url: 'u', tags: ['tea'] } } });
    expect(ids((await t.json<SearchBody>('/search?tag=tea')).body)).toEqual([
      'a:four',
    ]);
    await t.request('/configs/a', { method: 'DELETE' });
    expect(ids((await t.json<SearchBody>('/search?tag=tea')).body)).toEqual([]);
  });
});
