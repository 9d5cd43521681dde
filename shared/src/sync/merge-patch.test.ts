import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameValue } from '../util/same-value.js';
import { applyMergePatch, createMergePatch } from './merge-patch.js';

describe('applyMergePatch (RFC 7396)', () => {
  // The examples of the RFC's appendix A: original, patch, result.
  const examples: [unknown, unknown, unknown][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  it.each(examples)('%j patched with %j is %j', (target, patch, result) => {
    expect(applyMergePatch(target, patch)).toEqual(result);
  });

  it('replaces arrays (tags) whole and leaves the target unchanged', () => {
    const target = { allLinks: { a: { url: 'u', tags: ['x', 'y'] } } };
    const copy = structuredClone(target);
    const out = applyMergePatch(target, { allLinks: { a: { tags: ['z'] } } });
    expect(out).toEqual({ allLinks: { a: { url: 'u', tags: ['z'] } } });
    expect(target).toEqual(copy);
  });

  it('keeps members in place and adds new ones last', () => {
    const out = applyMergePatch({ a: 1, b: 2, c: 3 }, { b: 9, d: 4 });
    expect(Object.keys(out as object)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('never changes a prototype through a __proto__ key', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    const out = applyMergePatch({}, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('createMergePatch', () => {
  it('says only what differs', () => {
    const from = {
      allLinks: { a: { url: 'u', label: 'A' }, b: { url: 'v' } },
      macros: { m: { linkItems: 'a' } },
    };
    const to = {
      allLinks: { a: { url: 'u', label: 'New' }, c: { url: 'w' } },
      macros: { m: { linkItems: 'a' } },
    };
    expect(createMergePatch(from, to)).toEqual({
      allLinks: { a: { label: 'New' }, b: null, c: { url: 'w' } },
    });
  });

  it('cannot carry a null member of an object (it would mean "remove")', () => {
    expect(createMergePatch({ s: {} }, { s: { limit: null } })).toBeUndefined();
    expect(createMergePatch({}, { s: { o: { limit: null } } })).toBeUndefined();
    expect(createMergePatch({}, { n: null })).toBeUndefined();
    // Inside an array a null travels as it is.
    expect(createMergePatch({}, { t: [null] })).toEqual({ t: [null] });
  });

  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.array(fc.oneof(fc.string(), fc.constant(null)), { maxLength: 3 }),
      tie('object'),
    ),
    object: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('value'), {
      maxKeys: 4,
    }),
  }));

  it('applied to the first, gives the second (property)', () => {
    fc.assert(
      fc.property(json.object, json.object, (from, to) => {
        const patch = createMergePatch(
          from as Record<string, unknown>,
          to as Record<string, unknown>,
        );
        if (patch !== undefined) {
          // Applied, it gives the second exactly, member order included.
          expect(JSON.stringify(applyMergePatch(from, patch))).toBe(
            JSON.stringify(to),
          );
          return;
        }
        // No patch only because the second orders members otherwise: in the order a patch gives, it has one.
        const arranged = inPatchOrder(from, to);
        const inOrder = createMergePatch(
          from as Record<string, unknown>,
          arranged as Record<string, unknown>,
        );
        expect(inOrder).toBeDefined();
        expect(sameValue(applyMergePatch(from, inOrder), to)).toBe(true);
      }),
    );
  });

  it('cannot say a new order of members (a menu reordered): then the whole config goes', () => {
    const from = { allLinks: { a: { u: 1 }, b: { u: 2 }, c: { u: 3 } } };
    expect(
      createMergePatch(from, {
        allLinks: { c: { u: 3 }, a: { u: 1 }, b: { u: 2 } },
      }),
    ).toBeUndefined();
    // A new member anywhere but last cannot be said either; last it can.
    expect(
      createMergePatch(from, {
        allLinks: { a: { u: 1 }, n: { u: 0 }, b: { u: 2 }, c: { u: 3 } },
      }),
    ).toBeUndefined();
    expect(
      createMergePatch(from, {
        allLinks: { a: { u: 1 }, b: { u: 2 }, c: { u: 3 }, n: { u: 0 } },
      }),
    ).toEqual({ allLinks: { n: { u: 0 } } });
  });
});

/** `to` with each object's members in the order applying a patch to `from` would give them. */
function inPatchOrder(from: unknown, to: unknown): unknown {
  if (
    typeof to !== 'object' ||
    to === null ||
    Array.isArray(to) ||
    typeof from !== 'object' ||
    from === null ||
    Array.isArray(from)
  )
    return to;
  const source = from as Record<string, unknown>;
  const target = to as Record<string, unknown>;
  const keys = [
    ...Object.keys(source).filter((key) => Object.hasOwn(target, key)),
    ...Object.keys(target).filter((key) => !Object.hasOwn(source, key)),
  ];
  return Object.fromEntries(
    keys.map((key) => [key, inPatchOrder(source[key], target[key])]),
  );
}
