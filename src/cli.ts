#!/usr/bin/env node
// React's development build is 15–20% slower; set this before anything imports React.
// (Through an alias: the bundle fixes NODE_ENV at build time and would flag an assignment.)
const env = process.env;
env.NODE_ENV ??= "production";

const { run } = await import("./cli/main.js");
const { processIO } = await import("./cli/io.js");
process.exitCode = await run(process.argv.slice(2), processIO());
