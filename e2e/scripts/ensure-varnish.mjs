#!/usr/bin/env node
// Makes sure the cache test (e2e/varnish, issue #30) has a Varnish to start: VARNISHD_PATH (default
// /usr/sbin/varnishd), else Debian's `varnish` package installed as root (ensure-debian-package.mjs).
import { spawnSync } from 'node:child_process';
import { ensureDebianPackage } from './ensure-debian-package.mjs';

ensureDebianPackage({
  tag: 'ensure-varnish',
  pkg: 'varnish',
  envVar: 'VARNISHD_PATH',
  defaultPath: '/usr/sbin/varnishd',
  version: (path) => {
    const result = spawnSync(path, ['-V'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    // varnishd prints its version on stderr.
    return result.status === 0
      ? (`${result.stderr}${result.stdout}`.split('\n')[0]?.trim() ?? '')
      : null;
  },
  howTo: 'The cache test (npm run test:varnish) needs Varnish.',
});
