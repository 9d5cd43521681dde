/**
 * Builds the web page (`web-client/app` → `web-client/dist-app`) only when it is missing or older than a
 * file it is built from, so `npm start` serves a current page without rebuilding one that already is.
 *
 * ```sh
 * node --import tsx scripts/build-app.ts           # build if missing or stale (npm run build:app)
 * node --import tsx scripts/build-app.ts --force   # build regardless
 * ```
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where the page comes from and where it goes; paths relative to the repository root. */
export const PAGE = {
  /**
   * Everything the Vite build reads: the page, the two packages it imports from source (vite.config.ts
   * aliases them), the build config, and the lockfile (the versions of Vite and the bundled libraries).
   */
  inputs: [
    'web-client/app',
    'web-client/src',
    'shared/src',
    // The service worker's pattern of API paths comes from the server's route table.
    'server/src/routers',
    'server/src/http/routes/route-table.ts',
    'web-client/vite.config.ts',
    'web-client/package.json',
    'shared/package.json',
    'package-lock.json',
  ],
  /** Files every complete build writes (Vite empties the folder first, so they are as new as the build). */
  outputs: ['web-client/dist-app/index.html', 'web-client/dist-app/sw.js'],
} as const;

/** A file and its modification time. */
export interface Stamp {
  readonly file: string;
  readonly mtimeMs: number;
}

/** Test files never reach the page; changing one must not cost a rebuild. */
const isTestFile = (name: string): boolean => /\.test\.ts$/.test(name);

/** The newest file under `paths` (files or folders, searched recursively), or `undefined` when there is none. */
export function newestFile(paths: readonly string[]): Stamp | undefined {
  let newest: Stamp | undefined;
  const visit = (path: string): void => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) visit(join(path, entry));
      return;
    }
    if (isTestFile(path)) return;
    if (newest === undefined || stat.mtimeMs > newest.mtimeMs)
      newest = { file: path, mtimeMs: stat.mtimeMs };
  };
  for (const path of paths) visit(path);
  return newest;
}

/** Why the page must be built, or `undefined` when the built page is current. */
export function staleReason(page: {
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
}): string | undefined {
  const missing = page.outputs.find((file) => !existsSync(file));
  if (missing !== undefined) return `${missing} is missing`;
  // The oldest output dates the build: a build that stopped half-way leaves an old file behind.
  const builtAt = Math.min(...page.outputs.map((f) => statSync(f).mtimeMs));
  const newest = newestFile(page.inputs);
  if (newest !== undefined && newest.mtimeMs > builtAt)
    return `${newest.file} changed after the last build`;
  return undefined;
}

async function main(): Promise<void> {
  // The paths in PAGE (and so in the messages) are relative to the repository root.
  process.chdir(ROOT);
  const reason = process.argv.includes('--force')
    ? '--force'
    : staleReason(PAGE);
  if (reason === undefined) {
    console.log('build:app: web-client/dist-app is current, not rebuilt');
    return;
  }
  console.log(`build:app: building the page (${reason})`);
  // Imported only when needed: loading Vite costs more than the check itself.
  const { build } = await import('vite');
  const { apiPathPattern } =
    await import('../server/src/http/routes/route-table.js');
  await build({
    configFile: 'web-client/vite.config.ts',
    // The service worker leaves these paths to the network (web-client/app/sw.ts).
    define: { __API_PATH_PATTERN__: JSON.stringify(apiPathPattern()) },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
