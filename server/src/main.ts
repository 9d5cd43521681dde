/** The server's entry point in the repository (`node server/dist/main.js [options]`): serves. */
import { SettingsError, refusedSettings } from './config/settings.js';
import { serve } from './serve.js';

serve(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof SettingsError) {
    // The reason alone, not the whole help that would scroll it away.
    process.stderr.write(refusedSettings(error, 'linkconfig-server'));
    process.exit(2);
  }
  process.stderr.write(
    `failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
