// What the test scripts that need a program from Debian's packages share (Chromium, Varnish):
// 1. the program at its path (an environment variable, else the package's default) runs → done;
// 2. otherwise, as root with apt-get: install the Debian package, then check again;
// 3. otherwise: exit 1 saying how to get it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Makes sure `program` can run, installing Debian's `pkg` when it cannot and this process may.
 * @param {{
 *   tag: string,              // prefix of every line printed (the calling script's name)
 *   pkg: string,              // the Debian package
 *   envVar: string,           // the variable that names another path for the program
 *   defaultPath: string,      // where the package puts the program
 *   version: (path: string) => string | null, // the program's version when it runs, else null
 *   howTo: string,            // what the tests need it for and how to get it, for the failure message
 * }} spec
 */
export function ensureDebianPackage(spec) {
  const { tag, pkg, envVar, defaultPath, version, howTo } = spec;
  const path = process.env[envVar] ?? defaultPath;
  const works = () => {
    if (!existsSync(path)) return false;
    const found = version(path);
    if (found === null) return false;
    console.log(`${tag}: using ${found} at ${path}`);
    return true;
  };
  const fail = (reason) => {
    console.error(`${tag}: ${reason}
${howTo} Either
  - install Debian's package as root: apt-get update && apt-get install -y ${pkg}
  - or point ${envVar} at an installed one.`);
    process.exit(1);
  };
  const run = (command, args, env) => {
    console.log(`${tag}: ${command} ${args.join(' ')}`);
    const result = spawnSync(command, args, {
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    if (result.status !== 0) {
      console.error(
        `${tag}: "${command} ${args.join(' ')}" failed (exit ${result.status ?? result.signal}).`,
      );
      process.exit(1);
    }
  };

  if (works()) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (process.env[envVar] !== undefined && path !== defaultPath)
    fail(`${envVar}=${path} does not exist or does not run.`);
  if (!isRoot)
    fail(`nothing runs at ${path}, and not running as root to install ${pkg}.`);
  if (spawnSync('sh', ['-c', 'command -v apt-get']).status !== 0)
    fail(`nothing runs at ${path}, and apt-get is not available.`);
  console.log(
    `${tag}: nothing runs at ${path}; installing Debian's ${pkg} package.`,
  );
  run('apt-get', ['update']);
  // A package's service is not started: policy-rc.d on CI images forbids it, and the tests start
  // their own processes.
  run('apt-get', ['install', '-y', '--no-install-recommends', pkg], {
    DEBIAN_FRONTEND: 'noninteractive',
  });
  if (!works()) fail(`${pkg} was installed but ${path} does not run.`);
}
