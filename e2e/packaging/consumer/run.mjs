// Runs the compiled consumer in Node against the server at argv[2] and prints its report as JSON.
// fake-indexeddb stands in for the browser's IndexedDB, so the hybrid store runs here too.
import 'fake-indexeddb/auto';
import { run } from './dist/main.js';

const report = await run(process.argv[2]);
process.stdout.write(`${JSON.stringify(report)}\n`);
