import { AFTER_PI, type AfterPi, configPath, loadConfig } from "../../src/config/config.js";
import { output } from "../../src/cli/common/output.js";
import { CliError } from "../../src/cli/common/errors.js";
import type { CliIO } from "../../src/cli/common/io.js";
import { parse, STORE_OPTION } from "../../src/cli/common/parse.js";
import { storeFromArgs } from "../../src/cli/common/store-arg.js";
import { withoutFetch } from "../../src/cli/common/without-fetch.js";
import { hostProblem } from "../../src/remote/ssh.js";
import { trace } from "../../src/launcher/trace.js";
import { holdHeapGrowth } from "./heapGrowth.js";

/** A path under the home folder as the shell writes it ("~/.pi/agent/sessions"). */
export function tildePath(path: string, home: string | undefined): string {
  if (!home || home === "/") return path;
  const h = home.replace(/\/+$/, "");
  return path === h ? "~" : path.startsWith(h + "/") ? "~" + path.slice(h.length) : path;
}

/** No subcommand: the full-screen browser (Ink is loaded only here). */
export async function browseCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, {
    ...STORE_OPTION,
    all: { type: "boolean", short: "a" },
    print: { type: "boolean" },
    "pi-command": { type: "string" },
    "after-pi": { type: "string" },
    "fallback-store": { type: "string" },
    config: { type: "string" },
    query: { type: "string" },
    // Used by the pi extension: the choice goes to a file (stdout belongs to pi's TUI),
    // and the session open in pi is marked and protected from deletion.
    "result-file": { type: "string" },
    current: { type: "string" },
    // Other machines' sessions too (src/remote), beside the config's "hosts".
    host: { type: "string", multiple: true },
  });
  if (positionals.length) throw new CliError(`unexpected argument '${positionals[0]}' (see pi-sessions --help)`, 2);
  // The config's "afterPi", for this run (checked before anything is drawn).
  const afterPi = values["after-pi"] as AfterPi | undefined;
  if (afterPi !== undefined && !AFTER_PI.includes(afterPi))
    throw new CliError(`--after-pi must be one of ${AFTER_PI.join(", ")}`, 2);
  const store = storeFromArgs(values["session-dir"], io, values["fallback-store"]);
  const picking = !!values.print || !!values["result-file"];
  if (!io.isTTY && !picking) {
    throw new CliError("the browser needs a terminal; for scripts use `pi-sessions list` (or `--json`)");
  }
  const cfgPath = configPath(values.config, io.env, io.cwd);
  const { config, warnings } = loadConfig(cfgPath);
  // A host named on the command line that ssh would take for an option ends the run; one in the config is left out, said.
  for (const h of values.host ?? []) {
    const problem = hostProblem(h);
    if (problem) throw new CliError(problem, 2);
  }
  for (const h of config.hosts) {
    const problem = hostProblem(h);
    if (problem) warnings.push(`config ${cfgPath}: "hosts": ${problem}; left out`);
  }
  // Inside pi (/sessions, --result-file) only this machine's sessions: pi switches to a file here.
  const hosts = values["result-file"]
    ? []
    : [...new Set([...config.hosts.filter((h) => !hostProblem(h)), ...(values.host ?? [])])];
  for (const w of warnings) output(io).note(`pi-sessions: ${w}\n`);
  // Other machines first: connecting (ssh, pi-sessions starting there, its list) goes on
  // while this machine's scan runs and Ink and React load (src/remote).
  const remote = hosts.length
    ? (await import("../../src/remote/browser-hosts.js")).startHosts(hosts, io.env, config.ssh)
    : undefined;
  if (remote) trace("hosts started");
  // A fresh temp copy of the demo store each run: an index of it would be left behind in the
  // user's cache folder for a store that is gone, so it goes without.
  if (store.source === "fallback") process.env.PI_SESSIONS_INDEX = "0";
  // The browser holds every session for as long as it runs: a large heap kept near what is
  // alive. Watched from before the scan, whose summaries pass the mark.
  const modulesLoaded = holdHeapGrowth();
  // Scan (on a worker thread) while Ink and React load: the first frame can then show rows.
  const { startEarlyScan } = await import("../../src/scan/early-scan.js");
  // A first screen before Ink loads: not for a picker, a search given at start or --host
  // (those start elsewhere than the plain list).
  const firstScreen =
    !picking && !values.query && !values.host?.length && io.isTTY && io.env.PI_SESSIONS_FIRST_SCREEN !== "0";
  // --all's first screen reads its rows of the index before the scan's 50,000 are made.
  const firstAll = firstScreen && !!values.all;
  const release = firstAll ? (await import("../../src/scan/snapshot-here.js")).holdSnapshotLoads() : () => {};
  // Unless --all, the first frame shows this folder's sessions: read those first.
  const early = startEarlyScan(store.dir, values.all ? undefined : io.cwd);
  // The UI decides its colours once, when its theme module loads: say which before that.
  process.env.PI_SESSIONS_THEME = config.theme;
  const storeLabel =
    store.source === "fallback"
      ? `${store.dir} (a copy of the demo store: changes stay there)`
      : tildePath(store.dir, io.env.HOME);
  // This folder's newest sessions on the screen before Ink loads; with --all, the index's
  // newest rows, each file checked, while the scan checks the rest.
  const firstOf = { storeDir: store.dir, cwd: io.cwd, storeLabel, config, current: values.current };
  let first;
  try {
    if (firstScreen) {
      const screens = await import("./firstScreen.js");
      first = await (firstAll ? screens.drawFirstScreenAll(firstOf) : screens.drawFirstScreen(firstOf));
    }
  } finally {
    release();
  }
  const { runBrowser } = await withoutFetch(() => import("./launch.js"));
  // Set only now that the modules are compiled (a changed V8 flag is a new compile-cache fingerprint).
  modulesLoaded();
  trace("browser loaded");
  return runBrowser({
    storeDir: store.dir,
    storeLabel,
    first,
    cwd: io.cwd,
    all: !!values.all,
    print: picking,
    piCommand: values["pi-command"] ?? io.env.PI_SESSIONS_PI ?? config.piCommand ?? "pi",
    afterPi: afterPi ?? config.afterPi,
    config,
    resultFile: values["result-file"],
    current: values.current,
    query: values.query,
    early,
    onFirstFrame: io.onFirstFrame,
    remote,
    // --host: the list opens on every host's sessions.
    hostsFirst: (values.host?.length ?? 0) > 0,
    // The status line is one row: the file's path is left to `pi-sessions config`.
    configWarnings: warnings.map((w) => w.split(`config ${cfgPath}: `).join("config: ")),
  });
}
