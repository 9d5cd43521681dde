#!/usr/bin/env node
// The `linkconfig` command of the installed package: `linkconfig serve [flags]` starts the server,
// the other commands manage keys, imports, exports and backups (`linkconfig --help` lists them).
import '../dist/cli/main.js';
