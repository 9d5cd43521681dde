import { describe, expect, it } from 'vitest';
import { resolveConflicts } from './resolve-conflicts.js';
import { changedPaths, threeWayMerge } from './three-way-merge.js';

interface TestLink {
  url?: string;
  label?: string;
  tags?: string[];
}
type Ids = 'a' | 'b' | 'c' | 'n';
type Config = {
  allLinks: Partial<Record<Ids, TestLink>>;
  macros?: Partial<Record<'m' | 'local', { linkItems: string }>>;
  settings?: { theme?: string };
  searchPatterns?: { p?: string };
};

const base: Config = {
  allLinks: {
    a: { url: 'https://a.example', label: 'A', tags: ['x', 'y'] },
    b: { url: 'https://b.example', label: 'B' },
  },
  macros: { m: { linkItems: 'a' } },
  settings: { theme: 'dark' },
};

/** `base` with `change` applied to a copy. */
function edit(change: (c: Config) => void): Config {
  const copy = structuredClone(base);
  change(copy);
  return copy;
}

describe('threeWayMerge', () => {
  it('keeps the links moved on one side in their new order (the order of a menu)', () => {
    const moved = (c: Config) => {
      c.allLinks = { b: c.allLinks.b, a: c.allLinks.a };
    };
    const relabel = (c: Config) => (c.allLinks.a!.label = 'Remote A');
    const local = edit(moved);
    const remote = edit(relabel);
    const one = threeWayMerge(base, local, remote);
    expect(one.conflicts).toEqual([]);
    expect(Object.keys(one.merged!.allLinks)).toEqual(['b', 'a']);
    expect(one.merged!.allLinks.a!.label).toBe('Remote A');
    // The same when the other side moved them.
    const other = threeWayMerge(base, remote, local);
    expect(Object.keys(other.merged!.allLinks)).toEqual(['b', 'a']);
    expect(other.merged!.allLinks.a!.label).toBe('Remote A');
    // Moved on one side only, nothing else changed: the new order.
    expect(
      Object.keys(threeWayMerge(base, base, local).merged!.allLinks),
    ).toEqual(['b', 'a']);
  });

  it('takes changes made on one side, per link and per field', () => {
    const local = edit((c) => (c.allLinks.a!.label = 'Local A'));
    const remote = edit((c) => {
      c.allLinks.a!.url = 'https://a2.example';
      c.allLinks.c = { url: 'https://c.example' };
    });
    const { merged, conflicts } = threeWayMerge(base, local, remote);
    expect(conflicts).toEqual([]);
    expect(merged).toEqual(
      edit((c) => {
        c.allLinks.a!.label = 'Local A';
        c.allLinks.a!.url = 'https://a2.example';
        c.allLinks.c = { url: 'https://c.example' };
      }),
    );
  });

  it('takes the same change made on both sides once', () => {
    const both = edit((c) => (c.allLinks.b!.label = 'Same'));
    expect(threeWayMerge(base, both, structuredClone(both))).toEqual({
      merged: both,
      conflicts: [],
    });
  });

  it('reports different changes to one field with its path and the three values', () => {
    const local = edit((c) => (c.allLinks.a!.url = 'https://local.example'));
    const remote = edit((c) => {
      c.allLinks.a!.url = 'https://remote.example';
      c.allLinks.b!.label = 'B2';
    });
    const result = threeWayMerge(base, local, remote);
    expect(result.conflicts).toEqual([
      {
        path: ['allLinks', 'a', 'url'],
        base: 'https://a.example',
        local: 'https://local.example',
        remote: 'https://remote.example',
      },
    ]);
    // The rest is merged; the conflict holds the local value until resolved.
    expect(result.merged).toEqual(
      edit((c) => {
        c.allLinks.a!.url = 'https://local.example';
        c.allLinks.b!.label = 'B2';
      }),
    );
    const resolved = resolveConflicts(result, [
      { path: ['allLinks', 'a', 'url'], take: 'remote' },
    ]) as Config;
    expect(resolved.allLinks.a!.url).toBe('https://remote.example');
    expect(resolved.allLinks.b!.label).toBe('B2');
  });

  it('a link removed on one side and changed on the other is a conflict of the link', () => {
    const local = edit((c) => delete c.allLinks.a);
    const remote = edit((c) => (c.allLinks.a!.label = 'Edited'));
    const result = threeWayMerge(base, local, remote);
    expect(result.conflicts).toEqual([
      {
        path: ['allLinks', 'a'],
        base: base.allLinks.a,
        local: undefined,
        remote: remote.allLinks.a,
      },
    ]);
    expect((result.merged as Config).allLinks.a).toBeUndefined();
    const kept = resolveConflicts(result, [
      { path: ['allLinks', 'a'], take: 'remote' },
    ]) as Config;
    expect(kept.allLinks.a!.label).toBe('Edited');
  });

  it('a link removed on one side and unchanged on the other is removed', () => {
    const local = edit((c) => delete c.allLinks.a);
    const result = threeWayMerge(base, local, structuredClone(base));
    expect(result.conflicts).toEqual([]);
    expect(Object.keys((result.merged as Config).allLinks)).toEqual(['b']);
  });

  it('a link added on both sides with the same id merges per field', () => {
    const local = edit(
      (c) => (c.allLinks.n = { url: 'https://n.example', label: 'L' }),
    );
    const remote = edit(
      (c) => (c.allLinks.n = { url: 'https://n.example', tags: ['t'] }),
    );
    const same = threeWayMerge(base, local, remote);
    expect(same.conflicts).toEqual([]);
    expect((same.merged as Config).allLinks.n).toEqual({
      url: 'https://n.example',
      label: 'L',
      tags: ['t'],
    });
    const other = edit(
      (c) => (c.allLinks.n = { url: 'https://other.example' }),
    );
    expect(threeWayMerge(base, local, other).conflicts).toEqual([
      {
        path: ['allLinks', 'n', 'url'],
        base: undefined,
        local: 'https://n.example',
        remote: 'https://other.example',
      },
    ]);
  });

  it('tags are one value: edits of the same array conflict, an edit on one side is taken whole', () => {
    const local = edit((c) => (c.allLinks.a!.tags = ['x', 'y', 'local']));
    const remote = edit((c) => (c.allLinks.a!.tags = ['x']));
    expect(threeWayMerge(base, local, remote).conflicts).toEqual([
      {
        path: ['allLinks', 'a', 'tags'],
        base: ['x', 'y'],
        local: ['x', 'y', 'local'],
        remote: ['x'],
      },
    ]);
    const labelled = edit((c) => (c.allLinks.a!.label = 'L'));
    const { merged, conflicts } = threeWayMerge(base, labelled, remote);
    expect(conflicts).toEqual([]);
    expect((merged as Config).allLinks.a).toEqual({
      url: 'https://a.example',
      label: 'L',
      tags: ['x'],
    });
  });

  it('merges macros, settings and searchPatterns per key', () => {
    const local = edit((c) => {
      c.macros!.local = { linkItems: 'b' };
      c.settings!.theme = 'light';
    });
    const remote = edit((c) => {
      c.macros!.m = { linkItems: 'a, b' };
      c.searchPatterns = { p: 'x.*' };
    });
    const { merged, conflicts } = threeWayMerge(base, local, remote);
    expect(conflicts).toEqual([]);
    expect(merged).toMatchObject({
      macros: { m: { linkItems: 'a, b' }, local: { linkItems: 'b' } },
      settings: { theme: 'light' },
      searchPatterns: { p: 'x.*' },
    });
    const other = edit((c) => (c.macros!.m = { linkItems: 'c' }));
    const both = edit((c) => (c.macros!.m = { linkItems: 'd' }));
    expect(
      threeWayMerge(base, other, both).conflicts.map((c) => c.path),
    ).toEqual([['macros', 'm']]);
  });

  it('a config removed on one side: removed when the other did not change it, else one conflict', () => {
    expect(threeWayMerge(base, null, structuredClone(base))).toEqual({
      merged: null,
      conflicts: [],
    });
    const remote = edit((c) => (c.allLinks.b!.label = 'B2'));
    expect(threeWayMerge(base, null, remote)).toEqual({
      merged: null,
      conflicts: [{ path: [], base, local: undefined, remote }],
    });
    expect(threeWayMerge(base, remote, null).conflicts).toEqual([
      { path: [], base, local: remote, remote: undefined },
    ]);
    expect(threeWayMerge(base, null, null)).toEqual({
      merged: null,
      conflicts: [],
    });
  });

  it('a config created on both sides merges as if from an empty base', () => {
    const local: Config = { allLinks: { a: { url: 'https://a.example' } } };
    const remote: Config = { allLinks: { b: { url: 'https://b.example' } } };
    expect(threeWayMerge<Config>(null, local, remote)).toEqual({
      merged: { allLinks: { ...local.allLinks, ...remote.allLinks } },
      conflicts: [],
    });
  });

  it('a resolution for a path that is not a conflict is refused', () => {
    const result = threeWayMerge(base, base, base);
    expect(() =>
      resolveConflicts(result, [{ path: ['allLinks', 'a'], take: 'remote' }]),
    ).toThrow(/no conflict/);
  });
});

describe('changedPaths', () => {
  it('lists what one side changed, at the grain of the merge', () => {
    const changed = edit((c) => {
      c.allLinks.a!.label = 'x';
      delete c.allLinks.b;
      c.macros!.local = { linkItems: 'b' };
    });
    expect(changedPaths(base, changed)).toEqual([
      ['allLinks', 'a', 'label'],
      ['allLinks', 'b'],
      ['macros', 'local'],
    ]);
    expect(changedPaths(base, base)).toEqual([]);
    expect(changedPaths(base, null)).toEqual([[]]);
    expect(changedPaths(null, base)).toEqual([[]]);
  });
});
