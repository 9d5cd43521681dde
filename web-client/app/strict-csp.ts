/**
 * Imported first by the page: the server's Content-Security-Policy forbids `eval`, and zod would probe
 * for it with `new Function` on its first parse. The browser reports that probe as a CSP violation even
 * though zod catches the error, so zod is told up front not to try (its non-compiled parsers are used).
 * The setting is exported and the page checks it (`main.ts`): the package declares no side effects
 * (`sideEffects: false`), so a bundler keeps the call because its value is used, not because of a list
 * of files in package.json that the published package does not ship.
 */
import { z } from 'zod';

/** zod's settings once the page is told not to compile parsers. */
export const zodSettings = z.config({ jitless: true });
