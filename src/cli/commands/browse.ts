import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configPath, loadConfig } from "../../config/config.js";
import { CliError } from "../errors.js";
import type { CliIO } from "../io.js";
import { parse, STORE_OPTION } from "../parse.js";
import { storeFromArgs } from "../store-arg.js";
import { withoutFetch } from "../without-fetch.js";

/** No subcommand: the full-screen browser (Ink is loaded only here). */
export async function browseCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, {
    ...STORE_OPTION,
    all: { type: "boolean" },
    print: { type: "boolean" },
    "pi-command": { type: "string" },
    "fallback-store": { type: "string" },
    config: { type: "string" },
    query: { type: "string" },
    // Used by the pi extension: the choice goes to a file (stdout belongs to pi's TUI),
    // and the session open in pi is marked and protected from deletion.
    "result-file": { type: "string" },
    current: { type: "string" },
  });
  if (positionals.length) throw new CliError(`unexpected argument '${positionals[0]}' (see pi-sessions --help)`, 2);
  const store = storeFromArgs(values["session-dir"], io, values["fallback-store"]);
  const picking = !!values.print || !!values["result-file"];
  if (!io.isTTY && !picking) {
    throw new CliError("the browser needs a terminal; for scripts use `pi-sessions list` (or `--json`)");
  }
  const { config, warnings } = loadConfig(configPath(values.config, io.env, io.cwd));
  for (const w of warnings) io.stderr(`pi-sessions: ${w}\n`);
  // Scan (on a worker thread) while Ink and React load: the first frame can then show rows.
  const { startEarlyScan } = await import("../../store/early-scan.js");
  const early = startEarlyScan(store.dir);
  // The UI decides its colours once, when its theme module loads: say which before that.
  process.env.PI_SESSIONS_THEME = config.theme;
  const { runBrowser } = await withoutFetch(() => import("../../../components/app/launch.js"));
  // --print to a terminal is screen text: a file name holding escapes must not act on it.
  // The choice then comes back through a result file and is printed sanitized; to a pipe
  // the path is printed exact.
  const held = values.print && !values["result-file"] && io.isTTY ? mkdtempSync(join(tmpdir(), "pi-sessions-print-")) : undefined;
  const choiceFile = held ? join(held, "choice") : values["result-file"];
  try {
    const code = await runBrowser({
      storeDir: store.dir,
      storeLabel: store.source === "fallback" ? `${store.dir} (demo store)` : store.dir,
      cwd: io.cwd,
      all: !!values.all,
      print: picking,
      piCommand: values["pi-command"] ?? io.env.PI_SESSIONS_PI ?? config.piCommand ?? "pi",
      config,
      resultFile: choiceFile,
      current: values.current,
      query: values.query,
      early,
      onFirstFrame: io.onFirstFrame,
    });
    if (held && existsSync(choiceFile!)) {
      const { sanitizeLine } = await import("../../text/sanitize.js");
      io.stdout(`${sanitizeLine(readFileSync(choiceFile!, "utf8").replace(/\n$/, ""))}\n`);
    }
    return code;
  } finally {
    if (held) rmSync(held, { recursive: true, force: true });
  }
}
