#!/usr/bin/env node
// Makes sure the cache test (e2e/varnish, issue #30) has a Varnish to start.
// 1. VARNISHD_PATH (default /usr/sbin/varnishd) runs `-V` → done.
// 2. Otherwise, as root with apt-get: install Debian's `varnish` package, then check again.
// 3. Otherwise: exit 1 saying how to get one.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const varnishdPath = process.env.VARNISHD_PATH ?? '/usr/sbin/varnishd';

/** Whether the varnishd at `path` starts and prints its version. */
function works(path) {
  if (!existsSync(path)) return false;
  const result = spawnSync(path, ['-V'], { encoding: 'utf8', timeout: 30_000 });
  if (result.status !== 0) return false;
  // varnishd prints its version on stderr.
  const version = `${result.stderr}${result.stdout}`.split('\n')[0]?.trim();
  console.log(`ensure-varnish: using ${version} at ${path}`);
  return true;
}

/** Whether `command` is found on PATH. */
function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

/** Runs a command with its output streamed; exits when it fails. */
function run(command, args, env) {
  console.log(`ensure-varnish: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) {
    console.error(
      `ensure-varnish: "${command} ${args.join(' ')}" failed (exit ${result.status ?? result.signal}).`,
    );
    process.exit(1);
  }
}

function fail(reason) {
  console.error(`ensure-varnish: ${reason}
The cache test (npm run test:varnish) needs Varnish. Either
  - install Debian's package as root: apt-get update && apt-get install -y varnish
  - or point VARNISHD_PATH at an installed varnishd, e.g.
      VARNISHD_PATH=/usr/local/sbin/varnishd npm run test:varnish`);
  process.exit(1);
}

if (works(varnishdPath)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (
  process.env.VARNISHD_PATH !== undefined &&
  varnishdPath !== '/usr/sbin/varnishd'
)
  fail(`VARNISHD_PATH=${varnishdPath} does not exist or does not run.`);
if (!isRoot)
  fail(
    `no varnishd at ${varnishdPath}, and not running as root to install one.`,
  );
if (!has('apt-get'))
  fail(`no varnishd at ${varnishdPath}, and apt-get is not available.`);

console.log(
  `ensure-varnish: no varnishd at ${varnishdPath}; installing Debian's varnish package.`,
);
run('apt-get', ['update']);
// The package's service is not started: policy-rc.d on CI images forbids it, and the test starts its
// own varnishd in a temporary folder.
run('apt-get', ['install', '-y', '--no-install-recommends', 'varnish'], {
  DEBIAN_FRONTEND: 'noninteractive',
});
if (!works(varnishdPath))
  fail(`varnish was installed but ${varnishdPath} does not run.`);
