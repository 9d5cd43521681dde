import { describe, expect, it } from 'vitest';
import { createCallerFactory } from '../src/trpc.js';
import { appRouter } from '../src/routers/app-router.js';
import { createContextInner } from '../src/context.js';
import { DEMO_CONFIG } from '../src/seed/demo-config.js';
import { createTestApp } from './test-app.js';

interface Check {
  diagnostics: {
    code: string;
    severity: string;
    message: string;
    start?: number;
    end?: number;
    path?: (string | number)[];
  }[];
}

async function check(body: unknown) {
  const t = createTestApp();
  await t.put('demo', DEMO_CONFIG);
  return t.json<Check>('/expressions/check', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('POST /expressions/check', () => {
  it('points at a dangling operator and an unknown macro by offset', async () => {
    const { status, body } = await check({ expression: '.nyc + @nope' });
    expect(status).toBe(200);
    const byCode = new Map(body.diagnostics.map((d) => [d.code, d]));
    expect(byCode.get('unknown-macro')).toMatchObject({ start: 7, end: 12 });
    expect(body.diagnostics.map((d) => d.code)).toContain('trailing-operator');
  });

  it('says nothing about a clean expression', async () => {
    const { body } = await check({ expression: '.nyc | .sf' });
    expect(body.diagnostics).toEqual([]);
  });

  it('tells a hyphenated tag from a missing one', async () => {
    const { body } = await check({ expression: '.new-york' });
    expect(body.diagnostics.map((d) => d.code)).toContain('hyphenated-name');
  });

  it('checks a config alone and names the unreachable tag by its path', async () => {
    const { body } = await check({
      config: {
        allLinks: { a: { url: 'https://a.example', tags: ['big-apple'] } },
      },
    });
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({ path: ['allLinks', 'a', 'tags', 0] }),
    );
  });

  it('answers 400 when both forms or neither are given, and 404 for an unknown config', async () => {
    expect((await check({})).status).toBe(400);
    expect(
      (await check({ expression: 'a', config: { allLinks: {} } })).status,
    ).toBe(400);
    expect((await check({ expression: 'a', configName: 'nope' })).status).toBe(
      404,
    );
  });

  it('changes no answer of /query', async () => {
    const t = createTestApp();
    await t.put('demo', DEMO_CONFIG);
    const query = () =>
      t.json('/query', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ expression: '.nyc + @nope' }),
      });
    const before = await query();
    await t.post('/expressions/check', { expression: '.nyc + @nope' });
    expect(await query()).toEqual(before);
  });

  it('is the tRPC procedure expressions.check too', async () => {
    const t = createTestApp();
    await t.put('demo', DEMO_CONFIG);
    const caller = createCallerFactory(appRouter)(
      createContextInner(t.services),
    );
    const { diagnostics } = await caller.expressions.check({
      expression: '(.nyc',
    });
    expect(diagnostics.map((d) => d.code)).toContain('unclosed-parenthesis');
  });
});
