import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameValue } from '../util/same-value.js';
import { valueAt } from './resolve-conflicts.js';
import { threeWayMerge } from './three-way-merge.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Config = Record<string, any>;

const ids = ['a', 'b', 'c', 'd', 'e'];
const fields = ['url', 'label', 'tags'];
const keys = ['k1', 'k2', 'k3'];
const parts = ['macros', 'settings', 'searchPatterns'];

/** Small values, so both sides often pick the same one (changes made alike must merge once). */
const fieldValue = (field: string) =>
  field === 'tags'
    ? fc.constantFrom(['x'], ['y'], ['x', 'y'])
    : fc.constantFrom(`${field}-1`, `${field}-2`, `${field}-3`);

const linkArb = fc.record({
  url: fieldValue('url'),
  label: fieldValue('label'),
  tags: fieldValue('tags'),
});

const baseArb = fc.record({
  allLinks: fc.dictionary(fc.constantFrom(...ids), linkArb, { maxKeys: 5 }),
  macros: fc.dictionary(
    fc.constantFrom(...keys),
    fc.constantFrom(...['m1', 'm2'].map((linkItems) => ({ linkItems }))),
  ),
  settings: fc.dictionary(fc.constantFrom(...keys), fc.constantFrom(1, 2)),
  searchPatterns: fc.dictionary(
    fc.constantFrom(...keys),
    fc.constantFrom('p', 'q'),
  ),
});

/** One edit of an edit script. */
const editArb = fc.oneof(
  fc.record({
    kind: fc.constant('setField' as const),
    id: fc.constantFrom(...ids),
    field: fc.constantFrom(...fields),
    pick: fc.nat(2),
  }),
  fc.record({
    kind: fc.constant('removeField' as const),
    id: fc.constantFrom(...ids),
    field: fc.constantFrom('label', 'tags'),
  }),
  fc.record({
    kind: fc.constant('removeLink' as const),
    id: fc.constantFrom(...ids),
  }),
  fc.record({
    kind: fc.constant('setKey' as const),
    part: fc.constantFrom(...parts),
    key: fc.constantFrom(...keys),
    pick: fc.nat(1),
  }),
  fc.record({
    kind: fc.constant('removeKey' as const),
    part: fc.constantFrom(...parts),
    key: fc.constantFrom(...keys),
  }),
);
type Edit = typeof editArb extends fc.Arbitrary<infer E> ? E : never;

const partValues: Record<string, unknown[]> = {
  macros: [{ linkItems: 'm1' }, { linkItems: 'm3' }],
  settings: [1, 3],
  searchPatterns: ['p', 'r'],
};

function applyEdits(base: Config, edits: readonly Edit[]): Config {
  const c = structuredClone(base);
  for (const e of edits) {
    switch (e.kind) {
      case 'setField': {
        const link = (c['allLinks'][e.id] ??= { url: 'url-new' });
        link[e.field] =
          e.field === 'tags'
            ? [['x'], ['z'], ['x', 'z']][e.pick]
            : `${e.field}-${e.pick + 1}`;
        break;
      }
      case 'removeField':
        if (c['allLinks'][e.id]) delete c['allLinks'][e.id][e.field];
        break;
      case 'removeLink':
        delete c['allLinks'][e.id];
        break;
      case 'setKey':
        c[e.part][e.key] = partValues[e.part]![e.pick];
        break;
      case 'removeKey':
        delete c[e.part][e.key];
        break;
    }
  }
  return c;
}

/** Every path of the grain the merge works at, in any of the configs. */
function leafPaths(...configs: Config[]): string[][] {
  const paths = new Map<string, string[]>();
  const add = (path: string[]) => paths.set(JSON.stringify(path), path);
  for (const c of configs) {
    for (const [id, link] of Object.entries(c['allLinks'] ?? {})) {
      for (const field of Object.keys(link as object))
        add(['allLinks', id, field]);
    }
    for (const part of parts) {
      for (const key of Object.keys(c[part] ?? {})) add([part, key]);
    }
  }
  return [...paths.values()];
}

const isPrefix = (prefix: string[], path: string[]) =>
  prefix.every((step, i) => path[i] === step);

describe('threeWayMerge (properties)', () => {
  it('takes every change of both sides, and reports a conflict exactly where both changed the same thing differently', () => {
    fc.assert(
      fc.property(
        baseArb,
        fc.array(editArb, { maxLength: 8 }),
        fc.array(editArb, { maxLength: 8 }),
        (base, localEdits, remoteEdits) => {
          const local = applyEdits(base, localEdits);
          const remote = applyEdits(base, remoteEdits);
          const { merged, conflicts } = threeWayMerge<Config>(
            base,
            local,
            remote,
          );
          // Each reported conflict is real: both sides changed it, and not alike.
          for (const { path } of conflicts) {
            const [b, l, r] = [base, local, remote].map((c) =>
              valueAt(c, path),
            );
            expect(sameValue(l, b)).toBe(false);
            expect(sameValue(r, b)).toBe(false);
            expect(sameValue(l, r)).toBe(false);
            // ...and as narrow as it can be: one field, one key, or a link only one side still has.
            const narrowest =
              path.length === (path[0] === 'allLinks' ? 3 : 2) ||
              (path[0] === 'allLinks' &&
                path.length === 2 &&
                (l === undefined || r === undefined));
            expect(narrowest).toBe(true);
          }
          for (const path of leafPaths(base, local, remote)) {
            const [b, l, r, m] = [base, local, remote, merged].map((c) =>
              valueAt(c, path),
            );
            const covered = conflicts.some((c) => isPrefix(c.path, path));
            const localChanged = !sameValue(l, b);
            const remoteChanged = !sameValue(r, b);
            if (localChanged && remoteChanged && !sameValue(l, r)) {
              // A true conflict is never merged silently.
              expect(covered).toBe(true);
            } else if (!covered) {
              // Everything else is merged: one side's change, or the change both made alike.
              expect(m).toEqual(localChanged ? l : r);
            }
          }
          if (conflicts.length === 0) {
            expect(merged).not.toBeNull();
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('merging a side with an unchanged other side gives that side back', () => {
    fc.assert(
      fc.property(
        baseArb,
        fc.array(editArb, { maxLength: 8 }),
        (base, edits) => {
          const changed = applyEdits(base, edits);
          expect(threeWayMerge<Config>(base, changed, base)).toEqual({
            merged: changed,
            conflicts: [],
          });
          const other = threeWayMerge<Config>(base, base, changed);
          expect(other.conflicts).toEqual([]);
          expect(sameValue(other.merged, changed)).toBe(true);
        },
      ),
    );
  });
});
