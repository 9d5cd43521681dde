/**
 * Which protocols run (docs/expression-reference.md §10.1, §10.4). Section numbers (§) and rule ids (P, D) in
 * the test names are that document's.
 */
import { describe, expect, it } from 'vitest';
import { prepareConfig } from '../prepare/prepare.js';
import { DAY, NOW, configOf, ids } from '../test-catalog.js';
import type { FilterProtocolHandler } from '../types.js';

const config = prepareConfig(
  configOf(
    {
      a: { label: 'A', createdAt: NOW - DAY },
      b: { label: 'B' },
      c: { label: 'C', meta: { location: [1, 2] } },
    },
    { protocols: { web: { url: 'https://x' }, data: {} } },
  ),
);

describe('protocol dispatch (§10.1, §10.4, D1)', () => {
  it('built-in :time: and :location: run by default and can be disabled', () => {
    expect(ids(config, ':time:3d:')).toBe('a');
    expect(ids(config, ':location:')).toBe('c');
    expect(ids(config, ':time:3d:', { builtinProtocols: false })).toBe('');
    expect(ids(config, ':location:', { builtinProtocols: false })).toBe('');
  });

  it.each([
    ':web:',
    ':data:',
    ':hn:',
    ':json:x:',
    ':nope:',
    ':toString:',
    ':constructor:',
    ':::',
    ': :',
  ])(
    'config data alone, generate and unknown protocols give ∅: %j',
    (expression) => {
      expect(ids(config, expression)).toBe('');
    },
  );

  it('calls a custom filter once per link in catalog order with args, link and id', () => {
    const calls: string[] = [];
    const pick: FilterProtocolHandler = (args, link, id) => {
      calls.push(`${id}:${args.join('/')}:${link.label ?? ''}`);
      return args.includes(id);
    };
    expect(ids(config, ':pick:c:a:', { handlers: { pick } })).toBe('a,c');
    expect(calls).toEqual(['a:c/a:A', 'b:c/a:B', 'c:c/a:C']);
  });

  it('a handler that throws excludes that link only; truthy values keep', () => {
    const handlers: Record<string, FilterProtocolHandler> = {
      risky: (_args, _link, id) => {
        if (id === 'b') throw new Error('boom');
        return id === 'a' ? 1 : 'yes';
      },
      web: () => true,
    };
    expect(ids(config, ':risky:', { handlers })).toBe('a,c');
    expect(ids(config, ':web:', { handlers })).toBe('a,b,c');
  });

  it('a custom handler named like a built-in replaces it; non-functions are ignored', () => {
    const handlers = { time: () => true, junk: 5 } as unknown as Record<
      string,
      FilterProtocolHandler
    >;
    expect(ids(config, ':time:', { handlers })).toBe('a,b,c');
    expect(ids(config, ':junk:', { handlers })).toBe('');
  });

  it('inherited names never count as handlers', () => {
    const handlers = Object.create({ inherited: () => true }) as Record<
      string,
      FilterProtocolHandler
    >;
    expect(ids(config, ':inherited:', { handlers })).toBe('');
  });
});

describe('built-in protocol memo (per resolution)', () => {
  it('distinguishes arguments that only differ by separators', () => {
    const dated = prepareConfig(
      configOf({
        a: { createdAt: NOW - DAY },
        b: { createdAt: NOW - 5 * DAY },
      }),
    );
    expect(ids(dated, ':time:2d:, :time:6d:')).toBe('a,b');
    expect(ids(dated, ':time:1d\u00002d:, :time:2d:')).toBe('a');
    expect(ids(dated, ':time:3d:1d:, :time:3d:')).toBe('a');
  });
});
