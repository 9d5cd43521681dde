/** The server's entry point in the repository (`node server/dist/main.js [options]`): serves. */
import { serve } from './serve.js';

serve(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
