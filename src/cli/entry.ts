import { processIO } from "./common/io.js";
import { run } from "./main.js";

/**
 * The command line without the browser, bundled as one file (dist/bundle/chunks/commands.js,
 * loaded by src/bin.ts for a subcommand): one module to load rather than the twenty-odd
 * chunks a command shares with the browser's bundle (6 ms against 14 for `search`).
 */
export function main(argv: string[], hooks: { program?: string } = {}): Promise<number> {
  return run(argv, { ...processIO(), program: hooks.program });
}
