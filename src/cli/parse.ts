import { parseArgs, type ParseArgsConfig } from "node:util";
import { usageError } from "./errors.js";

export const STORE_OPTION = { "session-dir": { type: "string" }, help: { type: "boolean", short: "h" } } as const;

/** node's parseArgs, with its errors turned into usage errors (exit 2). */
export function parse<O extends NonNullable<ParseArgsConfig["options"]>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw usageError((err as Error).message);
  }
}
