#!/usr/bin/env node
// The `linkconfig-server` command of the installed package: the same flags and environment variables as
// `node server/dist/main.js` in the repository (`linkconfig-server --help` lists them).
import '../dist/main.js';
