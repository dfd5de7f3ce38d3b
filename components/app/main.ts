import { processIO } from "../../src/cli/common/io.js";
import { run } from "../../src/cli/main.js";
import { UI_COMMANDS } from "./uiCommands.js";

/** What the launcher (src/bin.ts) lends the program. */
export interface LaunchHooks {
  /** The browser has drawn its first frame. */
  onFirstFrame?: () => void;
}

/** The bundled program's entry (dist/bundle/app.js, loaded by src/bin.ts): the CLI with the browser. */
export function main(argv: string[], hooks: LaunchHooks = {}): Promise<number> {
  return run(argv, { ...processIO(), onFirstFrame: hooks.onFirstFrame }, UI_COMMANDS);
}
