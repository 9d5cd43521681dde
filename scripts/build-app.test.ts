import {
  mkdirSync,
  mkdtempSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newestFile, staleReason } from './build-app.js';

let dir: string;

/** Writes `path` (under the temp dir) with the given modification time in seconds since the epoch. */
function file(path: string, mtime: number): string {
  const full = join(dir, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, path);
  utimesSync(full, mtime, mtime);
  return full;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'build-app-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('staleReason', () => {
  const page = () => ({
    inputs: [join(dir, 'app'), join(dir, 'vite.config.ts')],
    outputs: [join(dir, 'out/index.html'), join(dir, 'out/sw.js')],
  });

  it('asks for a build when an output is missing', () => {
    file('app/main.ts', 1000);
    file('out/index.html', 2000);
    expect(staleReason(page())).toMatch(/sw\.js is missing/);
  });

  it('accepts a build newer than every input', () => {
    file('app/main.ts', 1000);
    file('app/nested/view.ts', 1100);
    file('vite.config.ts', 900);
    file('out/index.html', 2000);
    file('out/sw.js', 2000);
    expect(staleReason(page())).toBeUndefined();
  });

  it('asks for a build when a nested input changed after it', () => {
    file('app/main.ts', 1000);
    file('app/nested/view.ts', 3000);
    file('out/index.html', 2000);
    file('out/sw.js', 2000);
    expect(staleReason(page())).toMatch(
      /view\.ts changed after the last build/,
    );
  });

  it('dates the build by its oldest output', () => {
    file('app/main.ts', 1500);
    file('out/index.html', 2000);
    file('out/sw.js', 1000);
    expect(staleReason(page())).toMatch(/main\.ts changed/);
  });

  it('ignores changed test files', () => {
    file('app/main.ts', 1000);
    file('app/main.test.ts', 3000);
    file('out/index.html', 2000);
    file('out/sw.js', 2000);
    expect(staleReason(page())).toBeUndefined();
  });
});

describe('newestFile', () => {
  it('answers undefined when no input exists', () => {
    expect(newestFile([join(dir, 'nothing')])).toBeUndefined();
  });

  it('finds the newest file among files and folders', () => {
    file('a/one.ts', 1000);
    const newest = file('a/b/two.ts', 2000);
    file('three.json', 1500);
    expect(newestFile([join(dir, 'a'), join(dir, 'three.json')])?.file).toBe(
      newest,
    );
  });
});
