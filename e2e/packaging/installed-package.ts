/**
 * Checks of an installed package's files (an installed package is its tarball unpacked): what it ships,
 * where its source maps point, what its declarations import.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Every file under `dir`, as paths relative to it with `/` separators. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (path: string): void => {
    for (const entry of readdirSync(path)) {
      const full = join(path, entry);
      if (statSync(full).isDirectory()) visit(full);
      else out.push(relative(dir, full).split('\\').join('/'));
    }
  };
  visit(dir);
  return out.sort();
}

/**
 * Every reference from a shipped file to a file the package lacks: `sourceMappingURL` comments whose map
 * is missing, and map `sources` that are missing. An empty list means every map can be followed.
 */
export function brokenSourceMapLinks(dir: string): string[] {
  const broken: string[] = [];
  for (const file of listFiles(dir)) {
    const full = join(dir, file);
    if (/\.(?:js|d\.ts)$/.test(file)) {
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(
        readFileSync(full, 'utf8'),
      )?.[1];
      if (url !== undefined && !existsSync(resolve(dirname(full), url)))
        broken.push(`${file} → ${url}`);
    }
    if (file.endsWith('.map')) {
      const map = JSON.parse(readFileSync(full, 'utf8')) as {
        sourceRoot?: string;
        sources?: string[];
      };
      for (const source of map.sources ?? []) {
        const target = resolve(dirname(full), map.sourceRoot ?? '', source);
        if (!existsSync(target)) broken.push(`${file} → ${source}`);
      }
    }
  }
  return broken;
}

/** Compiled modules and declarations without their source (left over from a deleted or renamed one). */
export function compiledWithoutSource(dir: string): string[] {
  return listFiles(dir)
    .filter((file) => /^dist\/.*\.(?:js|d\.ts)$/.test(file))
    .filter((file) => {
      const source = file
        .replace(/^dist\//, 'src/')
        .replace(/\.(?:js|d\.ts)$/, '.ts');
      return !existsSync(join(dir, source));
    });
}

/** The module specifiers a declaration file imports or re-exports from (static and `import()` types). */
export function declarationImports(file: string): string[] {
  // Comments first: a doc comment's words (`… from "token refused"`) are no import.
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const specifiers = new Set<string>();
  for (const match of text.matchAll(
    /(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g,
  ))
    if (match[1] !== undefined) specifiers.add(match[1]);
  return [...specifiers].sort();
}

/** The package a module specifier names: `zod/v4` → `zod`, `@trpc/server/x` → `@trpc/server`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@')
    ? parts.slice(0, 2).join('/')
    : (parts[0] ?? specifier);
}
