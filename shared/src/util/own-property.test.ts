import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLOCKED_KEYS, isBlockedKey, setOwn } from './own-property.js';

const ROOT = join(import.meta.dirname, '../../..');

/** Every TypeScript source file of the shipped code (tests left out) under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !/\.test\.ts$|test-/.test(file))
    .map((file) => join(ROOT, dir, file));
}

describe('own-property rules', () => {
  it('sets any key as an own member, __proto__ included, and leaves the prototype alone', () => {
    const target: Record<string, unknown> = {};
    setOwn(target, '__proto__', { polluted: true });
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(Object.keys(target)).toEqual(['__proto__']);
    expect(JSON.stringify(target)).toBe('{"__proto__":{"polluted":true}}');
  });

  it('blocks the three keys preparation removes, and no other', () => {
    expect([...BLOCKED_KEYS].sort()).toEqual([
      '__proto__',
      'constructor',
      'prototype',
    ]);
    expect(isBlockedKey('constructor')).toBe(true);
    expect(isBlockedKey('Constructor')).toBe(false);
  });

  it('is written once: no other shipped module spells the blocked keys or defines members by hand', () => {
    const copies: string[] = [];
    for (const dir of [
      'shared/src',
      'server/src',
      'web-client/src',
      'web-client/app',
    ])
      for (const file of sources(dir)) {
        if (file.endsWith(join('util', 'own-property.ts'))) continue;
        const text = readFileSync(file, 'utf8');
        if (/'__proto__',\s*'constructor',\s*'prototype'/.test(text))
          copies.push(`${relative(ROOT, file)}: the blocked keys`);
        if (/defineProperty\([^)]*\{\s*value[^}]*enumerable: true/s.test(text))
          copies.push(`${relative(ROOT, file)}: an own-property setter`);
      }
    expect(copies).toEqual([]);
  });
});
