/**
 * The server package's version, read from its `package.json` (one level above both `src/` and `dist/`):
 * what `linkconfig --version` prints and the OpenAPI document states, written in one place.
 */
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

export const SERVER_VERSION: string = manifest.version;
