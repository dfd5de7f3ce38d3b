import { readFileSync } from "node:fs";
import { AppendRefused } from "../actions/append-entry.js";
import { DeleteRefused, RestoreRefused, TrashUnavailable } from "../actions/trash/index.js";
import { NotASessionError } from "../model/session-index.js";
import { StoreError } from "../store/locate.js";
import { labelCommand } from "./commands/label.js";
import { listCommand } from "./commands/list.js";
import { renameCommand } from "./commands/rename.js";
import { showCommand } from "./commands/show.js";
import { browseCommand } from "./commands/browse.js";
import { configCommand } from "./commands/config.js";
import { deleteCommand } from "./commands/delete.js";
import { restoreCommand } from "./commands/restore.js";
import { CliError, usageError } from "./errors.js";
import { COMMAND_HELP, MAIN_HELP } from "./help.js";
import type { CliIO } from "./io.js";
import { sanitizeLine } from "../text/sanitize.js";

type Command = (args: string[], io: CliIO) => Promise<number>;
const COMMANDS: Record<string, Command> = {
  list: listCommand,
  show: showCommand,
  rename: renameCommand,
  label: labelCommand,
  delete: deleteCommand,
  restore: restoreCommand,
  config: configCommand,
};

/** From dist/src/cli or src/cli: the package root is two or three folders up. */
function version(): string {
  for (const rel of ["../../../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), "utf8")) as { name?: string; version: string };
      if (pkg.name === "pi-sessions") return pkg.version;
    } catch {
      // try the next candidate
    }
  }
  return "unknown";
}

/** Runs one invocation and returns its exit code; errors become one line on stderr. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  const [first, ...rest] = argv;
  try {
    if (first === "help" || first === "-h" || first === "--help") {
      const topic = first === "help" ? rest[0] : undefined;
      io.stdout(topic && COMMAND_HELP[topic] ? COMMAND_HELP[topic] : MAIN_HELP);
      return 0;
    }
    if (first === "-v" || first === "--version") {
      io.stdout(`${version()}\n`);
      return 0;
    }
    if (first !== undefined && !first.startsWith("-")) {
      const command = COMMANDS[first];
      if (!command) throw usageError(`unknown command '${first}' (see pi-sessions --help)`);
      if (rest.includes("--help") || rest.includes("-h")) {
        io.stdout(COMMAND_HELP[first]);
        return 0;
      }
      return await command(rest, io);
    }
    return await browseCommand(argv, io);
  } catch (err) {
    if (err instanceof CliError) {
      io.stderr(`pi-sessions: ${sanitizeLine(err.message)}\n`);
      return err.exitCode;
    }
    if (
      err instanceof StoreError ||
      err instanceof NotASessionError ||
      err instanceof AppendRefused ||
      err instanceof DeleteRefused ||
      err instanceof RestoreRefused ||
      err instanceof TrashUnavailable
    ) {
      io.stderr(`pi-sessions: ${sanitizeLine(err.message)}\n`);
      return 1;
    }
    const e = err as NodeJS.ErrnoException;
    io.stderr(`pi-sessions: ${e.code ? `${e.code}: ` : ""}${sanitizeLine(e.message ?? String(err))}\n`);
    return 1;
  }
}
