import type { CliIO } from "../common/io.js";

type Command = (args: string[], io: CliIO) => Promise<number>;

/**
 * The command line's commands, each loaded on demand (a run pays only for the command it
 * runs): what src/cli/main.ts runs, and what another machine's `serve` runs for a request
 * (src/remote).
 */
export const COMMAND_TABLE = {
  list: async () => (await import("./list.js")).listCommand,
  show: async () => (await import("./show.js")).showCommand,
  stats: async () => (await import("./stats.js")).statsCommand,
  export: async () => (await import("./export.js")).exportCommand,
  rename: async () => (await import("./rename.js")).renameCommand,
  label: async () => (await import("./label.js")).labelCommand,
  delete: async () => (await import("./delete.js")).deleteCommand,
  restore: async () => (await import("./restore.js")).restoreCommand,
  config: async () => (await import("./config.js")).configCommand,
  search: async () => (await import("./search.js")).searchCommand,
  index: async () => (await import("./index.js")).indexCommand,
} satisfies Record<string, () => Promise<Command>>;
