import { CliError } from "../errors.js";
import type { CliIO } from "../io.js";
import { parse, STORE_OPTION } from "../parse.js";
import { storeFromArgs } from "../store-arg.js";

/** No subcommand: the full-screen browser (Ink is loaded only here). */
export async function browseCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, {
    ...STORE_OPTION,
    all: { type: "boolean" },
    print: { type: "boolean" },
    "pi-command": { type: "string" },
    "fallback-store": { type: "string" },
  });
  if (positionals.length) throw new CliError(`unexpected argument '${positionals[0]}' (see pi-sessions --help)`, 2);
  const store = storeFromArgs(values["session-dir"], io, values["fallback-store"]);
  if (!io.isTTY && !values.print) {
    throw new CliError("the browser needs a terminal; for scripts use `pi-sessions list` (or `--json`)");
  }
  const { runBrowser } = await import("../../../components/app/launch.js");
  return runBrowser({
    storeDir: store.dir,
    storeLabel: store.source === "fallback" ? `${store.dir} (demo store)` : store.dir,
    cwd: io.cwd,
    all: !!values.all,
    print: !!values.print,
    piCommand: values["pi-command"] ?? io.env.PI_SESSIONS_PI ?? "pi",
  });
}
