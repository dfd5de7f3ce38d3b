#!/usr/bin/env node
// The unbundled program (dist/components/app/cli.js; users run the bundle, src/bin.ts).
// React's development build is 15–20% slower; set this before anything imports React.
process.env.NODE_ENV ??= "production";

const { main } = await import("./main.js");
process.exitCode = await main(process.argv.slice(2));
