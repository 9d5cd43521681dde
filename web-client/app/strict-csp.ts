/**
 * Imported first by the page: the server's Content-Security-Policy forbids `eval`, and zod would probe
 * for it with `new Function` when the first schema is made. The browser reports that probe as a CSP
 * violation even though zod catches the error, so zod is told up front not to try (its non-compiled
 * parsers are used).
 *
 * The package declares `"sideEffects": false`, so a bare `import './strict-csp.js'` is dropped from the
 * build; main.ts uses {@link zodConfig}, which keeps this module, and its place first among main.ts's
 * imports makes it run before any schema is made.
 */
import { z } from 'zod';

/** zod's global configuration, with compiled parsers turned off. */
export const zodConfig = z.config({ jitless: true });
