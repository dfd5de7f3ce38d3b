import { userKeymap } from "../../browser/keys/userKeymap.js";
import { configPath, loadConfig } from "../../config/config.js";
import { loadPiKeybindings, piKeybindingsPath } from "../../config/piKeybindings.js";
import { usageError } from "../common/errors.js";
import { quietIO, type CliIO } from "../common/io.js";
import { output } from "../common/output.js";
import { parse, QUIET_OPTION } from "../common/parse.js";

/** `config --path` prints where the file is; `config` prints the settings in effect. */
export async function configCommand(args: string[], given: CliIO): Promise<number> {
  const { values, positionals } = parse(args, {
    config: { type: "string" },
    path: { type: "boolean" },
    help: { type: "boolean", short: "h" },
    ...QUIET_OPTION,
  });
  const io = quietIO(given, values.quiet);
  const out = output(io);
  if (positionals.length) throw usageError("config takes no arguments");
  const path = configPath(values.config, io.env, io.cwd);
  if (values.path) {
    out.text(`${path}\n`);
    return 0;
  }
  const { config, warnings } = loadConfig(path);
  // Key bindings are checked against the browser's command registry, as the browser does.
  const pi = loadPiKeybindings(piKeybindingsPath(io.env, undefined, io.cwd));
  const own = userKeymap(config.keys, pi.bindings).warnings;
  for (const w of [...warnings, ...(pi.warning ? [pi.warning] : []), ...own]) out.note(`pi-sessions: ${w}\n`);
  out.json(config);
  return 0;
}
