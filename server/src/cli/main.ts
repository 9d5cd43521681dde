/** The entry point of the `linkconfig` command (`server/bin/linkconfig.js`). */
import { runCli } from './program.js';

const code = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
// `serve` keeps running on its own; every other command ends here with its code.
process.exitCode = code;
