import { usageError } from "../cli/common/errors.js";
import type { CliIO } from "../cli/common/io.js";
import { parse, STORE_OPTION } from "../cli/common/parse.js";
import { version } from "../cli/common/version.js";
import { serve } from "./server.js";

/**
 * `pi-sessions serve --stdio`: what another machine's pi-sessions runs here over SSH
 * (`ssh HOST pi-sessions serve --stdio`). It answers on stdin/stdout until stdin ends; it
 * opens no port and listens to nothing else.
 */
export async function serveCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, { ...STORE_OPTION, stdio: { type: "boolean" } }, "serve");
  if (positionals.length) throw usageError(`serve takes no arguments (got '${positionals[0]}')`);
  if (!values.stdio)
    throw usageError("serve speaks only over its standard input and output: pi-sessions serve --stdio (ssh runs it)");
  // The protocol owns stdout: nothing else may write there. Stray writes go to stderr.
  const out = process.stdout;
  await serve({
    input: process.stdin,
    output: out,
    env: io.env,
    cwd: io.cwd,
    sessionDir: values["session-dir"],
    version: version(),
  });
  // Everything answered and written before the process ends.
  await new Promise<void>((resolve) => (out.writableLength === 0 ? resolve() : out.once("drain", () => resolve())));
  return 0;
}
