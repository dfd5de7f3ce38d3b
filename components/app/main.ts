import { processIO } from "../../src/cli/io.js";
import { run } from "../../src/cli/main.js";

/** What the launcher (src/bin.ts) lends the program. */
export interface LaunchHooks {
  /** The browser has drawn its first frame. */
  onFirstFrame?: () => void;
}

/** Loaded on demand: only the browser pays for Ink and React. */
const browse = async (args: string[], io: Parameters<typeof run>[1]) => (await import("./browseCommand.js")).browseCommand(args, io);

/** The bundled program's entry (dist/bundle/app.js, loaded by src/bin.ts): the CLI with the browser. */
export function main(argv: string[], hooks: LaunchHooks = {}): Promise<number> {
  return run(argv, { ...processIO(), onFirstFrame: hooks.onFirstFrame }, browse);
}
