#!/usr/bin/env node
// The unbundled program (dist/src/cli.js; users run the bundle, src/bin.ts).
// React's development build is 15–20% slower; set this before anything imports React.
process.env.NODE_ENV ??= "production";

const { run } = await import("./cli/main.js");
const { processIO } = await import("./cli/io.js");
process.exitCode = await run(process.argv.slice(2), processIO());
