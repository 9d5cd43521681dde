/**
 * Property tests of resolution (docs/expression-reference.md §19). Section numbers (§) and rule ids (P, D) in
 * the test names are that document's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareConfig } from './prepare/prepare.js';
import { resolve } from './evaluate/resolve.js';
import { sanitizeUrl } from './safety/sanitize-url.js';
import { NOW } from './test-catalog.js';
import {
  ID_POOL,
  TAG_POOL,
  configArb,
  hostileArb,
  opArb,
} from './test-arbitraries.js';
import type { PreparedConfig } from './types.js';

function checkInvariants(
  prepared: PreparedConfig,
  expression: string,
): string[] {
  const options = { now: NOW };
  const first = resolve(prepared, expression, options).map((link) => link.id);
  const second = resolve(prepared, expression, options).map((link) => link.id);
  expect(second).toEqual(first);
  expect(new Set(first).size).toBe(first.length);
  for (const id of first) expect(prepared.links.has(id)).toBe(true);
  return first;
}

describe('properties (§19)', () => {
  it('random text never throws and returns distinct catalog ids, deterministically', () => {
    fc.assert(
      fc.property(
        configArb,
        fc.string({ unit: 'binary', maxLength: 200 }),
        (config, text) => {
          checkInvariants(prepareConfig(config), text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('generated and hostile expressions never throw and return distinct catalog ids', () => {
    fc.assert(
      fc.property(configArb, hostileArb, (config, expression) => {
        checkInvariants(prepareConfig(config), expression);
      }),
      { numRuns: 500 },
    );
  });

  // Operands must tokenize as one atom: no non-ASCII id, no hyphenated tag.
  const ids = ID_POOL.filter((id) => /^\w+$/.test(id));
  const tags = TAG_POOL.filter((tag) => /^\w+$/.test(tag));
  const operandArb = fc.oneof(
    fc.constantFrom(...ids),
    fc.constantFrom(...tags).map((t) => `.${t}`),
    fc
      .tuple(fc.constantFrom(...tags), opArb, fc.constantFrom(...ids))
      .map(([t, op, id]) => `(.${t}${op}${id})`),
  );
  const resolveIds = (prepared: PreparedConfig, expression: string): string[] =>
    resolve(prepared, expression, { now: NOW }).map((link) => link.id);

  it('set laws for id and tag operands (§4)', () => {
    fc.assert(
      fc.property(configArb, operandArb, operandArb, (config, a, b) => {
        const prepared = prepareConfig(config);
        const left = resolveIds(prepared, a);
        const right = resolveIds(prepared, b);
        const union = resolveIds(prepared, `${a} | ${b}`);
        expect(union.slice(0, left.length)).toEqual(left);
        expect(new Set(union)).toEqual(new Set([...left, ...right]));
        expect(resolveIds(prepared, `${a} - ${a}`)).toEqual([]);
        const both = resolveIds(prepared, `${a} + ${b}`);
        const minus = resolveIds(prepared, `${a} - ${b}`);
        expect(both).toEqual(left.filter((id) => right.includes(id)));
        expect(minus).toEqual(left.filter((id) => !right.includes(id)));
        expect(resolveIds(prepared, `${a}, ${a}`)).toEqual(left);
      }),
      { numRuns: 300 },
    );
  });

  it('left-to-right operator chains match a naive model, call after call (§4 P1)', () => {
    const chainArb = fc.array(
      fc.tuple(fc.constantFrom('+', '|', '-'), operandArb),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(
        configArb,
        operandArb,
        fc.array(chainArb, { minLength: 1, maxLength: 4 }),
        (config, first, chains) => {
          const prepared = prepareConfig(config);
          for (const chain of chains) {
            let model = resolveIds(prepared, first);
            for (const [op, operand] of chain) {
              const right = resolveIds(prepared, operand);
              if (op === '+') model = model.filter((id) => right.includes(id));
              else if (op === '-')
                model = model.filter((id) => !right.includes(id));
              else
                model = [
                  ...model,
                  ...right.filter((id) => !model.includes(id)),
                ];
            }
            const expression = [
              first,
              ...chain.map(([op, o]) => `${op} ${o}`),
            ].join(' ');
            expect(resolveIds(prepared, expression)).toEqual(model);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  const controlArb = fc
    .integer({ min: 0, max: 0x20 })
    .map((c) => String.fromCharCode(c === 0x20 ? 0x7f : c));
  const spaceArb = fc.constantFrom(
    ...' \t\n\v\f\r\u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff',
  );

  it('blocked schemes never survive sanitization, whatever the case, whitespace and control characters (§15)', () => {
    const noisyScheme = fc
      .tuple(
        fc.constantFrom('javascript', 'data', 'vbscript', 'blob'),
        fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
        fc.array(fc.option(controlArb, { nil: '' }), {
          minLength: 11,
          maxLength: 11,
        }),
      )
      .map(([scheme, upper, noise]) =>
        [...scheme]
          .map(
            (ch, i) => `${noise[i] ?? ''}${upper[i] ? ch.toUpperCase() : ch}`,
          )
          .join(''),
      );
    fc.assert(
      fc.property(
        fc.tuple(
          fc.array(fc.oneof(spaceArb, controlArb), { maxLength: 4 }),
          noisyScheme,
          fc.array(fc.oneof(spaceArb, controlArb), { maxLength: 3 }),
          fc.string({ maxLength: 20 }),
        ),
        ([lead, scheme, beforeColon, tail]) => {
          const url = `${lead.join('')}${scheme}${beforeColon.join('')}:${tail}`;
          expect(sanitizeUrl(url)).toBe('about:blank');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('sanitization returns the input or about:blank, idempotently', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (url) => {
        const clean = sanitizeUrl(url);
        expect([url, 'about:blank']).toContain(clean);
        expect(sanitizeUrl(clean)).toBe(clean);
      }),
    );
  });
});
