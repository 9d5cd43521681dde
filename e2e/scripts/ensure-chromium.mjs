#!/usr/bin/env node
// Makes sure a Chromium the end-to-end tests can drive is installed (issue #5): CHROMIUM_PATH (default
// /usr/bin/chromium), else Debian's `chromium` package installed as root (ensure-debian-package.mjs).
import { spawnSync } from 'node:child_process';
import { ensureDebianPackage } from './ensure-debian-package.mjs';

ensureDebianPackage({
  tag: 'ensure-chromium',
  pkg: 'chromium',
  envVar: 'CHROMIUM_PATH',
  defaultPath: '/usr/bin/chromium',
  version: (path) => {
    const result = spawnSync(path, ['--version'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    return result.status === 0 ? result.stdout.trim() : null;
  },
  howTo: 'The end-to-end tests need a Chromium browser.',
});
