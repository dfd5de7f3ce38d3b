import { setFlagsFromString } from "node:v8";

setFlagsFromString("--allow-natives-syntax");

/**
 * V8's own answer: whether an object keeps its fields in place (a few words) rather than in a
 * dictionary of its own (node:sqlite's rows: hundreds of bytes each). Compiled once the flag is set.
 */
export const hasFastProperties = new Function("o", "return %HasFastProperties(o)") as (o: object) => boolean;
