#!/usr/bin/env node
// Makes sure a Chromium the end-to-end tests can drive is installed (issue #5).
// 1. CHROMIUM_PATH (default /usr/bin/chromium) runs `--version` → done.
// 2. Otherwise, as root with apt-get: install Debian's `chromium` package, then check again.
// 3. Otherwise: exit 1 saying how to get one.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether the browser at `path` starts and prints its version. */
function works(path) {
  if (!existsSync(path)) return false;
  const result = spawnSync(path, ['--version'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (result.status !== 0) return false;
  console.log(`ensure-chromium: using ${result.stdout.trim()} at ${path}`);
  return true;
}

/** Whether `command` is found on PATH. */
function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

/** Runs a command with its output streamed; exits when it fails. */
function run(command, args, env) {
  console.log(`ensure-chromium: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) {
    console.error(
      `ensure-chromium: "${command} ${args.join(' ')}" failed (exit ${result.status ?? result.signal}).`,
    );
    process.exit(1);
  }
}

function fail(reason) {
  console.error(`ensure-chromium: ${reason}
The end-to-end tests need a Chromium browser. Either
  - install Debian's package as root: apt-get update && apt-get install -y chromium
  - or point CHROMIUM_PATH at an installed Chromium/Chrome binary, e.g.
      CHROMIUM_PATH=/usr/bin/google-chrome npm run test:e2e`);
  process.exit(1);
}

if (works(chromiumPath)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (
  process.env.CHROMIUM_PATH !== undefined &&
  chromiumPath !== '/usr/bin/chromium'
)
  fail(`CHROMIUM_PATH=${chromiumPath} does not exist or does not run.`);
if (!isRoot)
  fail(
    `no Chromium at ${chromiumPath}, and not running as root to install one.`,
  );
if (!has('apt-get'))
  fail(`no Chromium at ${chromiumPath}, and apt-get is not available.`);

console.log(
  `ensure-chromium: no Chromium at ${chromiumPath}; installing Debian's chromium package.`,
);
run('apt-get', ['update']);
run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
  DEBIAN_FRONTEND: 'noninteractive',
});
if (!works(chromiumPath))
  fail(`chromium was installed but ${chromiumPath} does not run.`);
