/**
 * Where the web page comes from. The repository builds it into `web-client/dist-app` (`npm run build:app`);
 * the installed package has no page, so there the default is none and `--app-dir` names one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The server package's own folder (`server/` in the repository), from this module's place in it. */
const SERVER_DIR = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * The page folder of the repository the server runs from: `<repository>/web-client/dist-app` when the
 * folder above the server package is the workspace that lists it (`workspaces` in its package.json).
 * `undefined` anywhere else, notably in an installed package (`node_modules/@linkconfig/server`).
 */
export function repositoryAppDir(
  serverDir: string = SERVER_DIR,
): string | undefined {
  const root = dirname(serverDir);
  try {
    const manifest = JSON.parse(
      readFileSync(join(root, 'package.json'), 'utf8'),
    ) as { workspaces?: unknown };
    const workspaces = manifest.workspaces;
    if (!Array.isArray(workspaces) || !workspaces.includes('server'))
      return undefined;
  } catch {
    return undefined;
  }
  return join(root, 'web-client', 'dist-app');
}

/** The folder holds a page to serve at `/` (its `index.html`). */
export function servesPage(appDir: string | undefined): appDir is string {
  return appDir !== undefined && existsSync(join(appDir, 'index.html'));
}
