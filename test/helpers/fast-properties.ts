import { setFlagsFromString } from "node:v8";

// Tests only, on purpose: V8's natives syntax switched on once V8 is running (Node's docs warn
// of that in general; this flag only lets the one function below be compiled). Each test file
// runs in its own process, so it goes no further than the files that import this.
setFlagsFromString("--allow-natives-syntax");

/**
 * V8's own answer: whether an object keeps its fields in place (a few words) rather than in a
 * dictionary of its own (node:sqlite's rows: hundreds of bytes each). Compiled once the flag is set.
 */
export const hasFastProperties = new Function("o", "return %HasFastProperties(o)") as (o: object) => boolean;
