/**
 * Reuse of the workspace's better-sqlite3 build when the packaging test installs the server package.
 *
 * better-sqlite3's install script asks `prebuild-install` for a binary before it compiles one from source
 * (a minute or two here). `prebuild-install` first looks in a local folder named by the environment
 * variable `npm_config_better_sqlite3_local_prebuilds`, for a file named exactly like the binary it would
 * download: same package version, Node ABI, platform and architecture. This module writes that file from
 * the binary the workspace's own `npm install` compiled, so the install script runs as usual and takes it.
 * It is the same source, version and Node as the fresh build would be; when anything differs (another
 * version resolved from the registry, a musl system) no file matches and the install compiles as usual.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './commands.js';

/** The environment variable `prebuild-install` reads for better-sqlite3's local prebuilds. */
export const LOCAL_PREBUILDS_VARIABLE =
  'npm_config_better_sqlite3_local_prebuilds';

/** Whether this Node runs on glibc (prebuild names carry no libc then; musl ones say `musl`). */
function isGlibc(): boolean {
  const report = process.report.getReport() as {
    header?: { glibcVersionRuntime?: string };
  };
  return report.header?.glibcVersionRuntime !== undefined;
}

/**
 * Writes the workspace's better-sqlite3 binary as a local prebuild into `dir`. Returns the version it
 * is for, or `undefined` (with the reason on `skipped`) when there is nothing to reuse.
 */
export async function writeLocalPrebuild(options: {
  readonly repoRoot: string;
  readonly dir: string;
}): Promise<{ version?: string; skipped?: string }> {
  const pkgDir = join(options.repoRoot, 'node_modules/better-sqlite3');
  const binary = 'build/Release/better_sqlite3.node';
  if (!existsSync(join(pkgDir, binary)))
    return { skipped: 'the workspace has no better-sqlite3 build' };
  if (!isGlibc()) return { skipped: 'not a glibc system' };
  const { version } = JSON.parse(
    readFileSync(join(pkgDir, 'package.json'), 'utf8'),
  ) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  mkdirSync(options.dir, { recursive: true });
  await run('tar', ['-czf', join(options.dir, name), binary], { cwd: pkgDir });
  return { version };
}
