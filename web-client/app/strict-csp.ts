/**
 * Imported first by the page: the server's Content-Security-Policy forbids `eval`, and zod would probe
 * for it with `new Function` on its first parse. The browser reports that probe as a CSP violation even
 * though zod catches the error, so zod is told up front not to try (its non-compiled parsers are used).
 * `web-client/package.json` lists this file in `sideEffects`: the package is otherwise side-effect free,
 * and a bundler would drop this import, which binds nothing.
 */
import { z } from 'zod';

z.config({ jitless: true });
