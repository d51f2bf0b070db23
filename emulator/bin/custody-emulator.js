#!/usr/bin/env node
// The `custody-emulator` bin. npm links a bin only when its file exists at install time, and in a fresh clone of
// the repository `npm ci` runs before the build writes dist/: a committed launcher is linked there too.
require("../dist/cli.js");
