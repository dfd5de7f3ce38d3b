import { output } from "./common/output.js";
import { CliError, usageError } from "./common/errors.js";
import { COMMAND_HELP, MAIN_HELP } from "./help.js";
import type { CliIO } from "./common/io.js";
import { isSubcommand } from "../launcher/subcommand.js";
import { version } from "./common/version.js";
import { wantsHost } from "../remote/route.js";
import { COMMAND_TABLE } from "./commands/table.js";

export type Command = (args: string[], io: CliIO) => Promise<number>;

/**
 * The command that needs the UI's code (the browser): its entry hands it in
 * (components/app/uiCommands.ts), so nothing under src/ imports the UI.
 */
export interface UiCommands {
  browse: Command;
}
// Loaded on demand: a run pays only for the command it runs (and never for Ink unless browsing).
const COMMANDS: Record<string, () => Promise<Command>> = {
  ...COMMAND_TABLE,
  serve: async () => (await import("../remote/serve-command.js")).serveCommand,
};

/**
 * Runs one invocation and returns its exit code; errors become one line on stderr. The
 * browser (no subcommand) is the UI's, handed in by its entry (components/app/main.ts).
 */
export async function run(argv: string[], io: CliIO, ui?: UiCommands): Promise<number> {
  const [first, ...rest] = argv;
  try {
    if (first === "help" || first === "-h" || first === "--help") {
      const topic = first === "help" ? rest[0] : undefined;
      output(io).text(topic && COMMAND_HELP[topic] ? COMMAND_HELP[topic] : MAIN_HELP);
      return 0;
    }
    if (first === "-v" || first === "--version") {
      output(io).text(`${version()}\n`);
      return 0;
    }
    if (isSubcommand(first)) {
      const load = COMMANDS[first];
      if (!load) throw usageError(`unknown command '${first}' (see pi-sessions --help)`);
      if (rest.includes("--help") || rest.includes("-h")) {
        output(io).text(COMMAND_HELP[first] ?? MAIN_HELP);
        return 0;
      }
      // Another machine's sessions (--host, HOST:PATH): src/remote.
      if (wantsHost(first, rest)) return await (await import("../remote/cli-remote.js")).remoteCommand(first, rest, io);
      return await (
        await load()
      )(rest, io);
    }
    if (!ui) throw new CliError("this build has no browser; run pi-sessions", 2);
    return await ui.browse(argv, io);
  } catch (err) {
    // Messages can quote file contents (ids, paths): sanitize them like any screen text.
    const { sanitizeLine } = await import("../text/sanitize.js");
    if (err instanceof CliError) {
      output(io).note(`pi-sessions: ${sanitizeLine(err.message)}\n`);
      return err.exitCode;
    }
    const e = err as NodeJS.ErrnoException;
    const message = e.message ?? String(err);
    // Node's own messages already start with their code ("EACCES: permission denied, …").
    const code = e.code && !message.startsWith(`${e.code}:`) ? `${e.code}: ` : "";
    output(io).note(`pi-sessions: ${sanitizeLine(code + message)}\n`);
    return 1;
  }
}
