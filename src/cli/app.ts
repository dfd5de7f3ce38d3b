import { processIO } from "./io.js";
import { run } from "./main.js";

/** What the launcher (src/bin.ts) lends the program. */
export interface LaunchHooks {
  /** The browser has drawn its first frame. */
  onFirstFrame?: () => void;
}

/** The bundled program's entry (dist/bundle/app.cjs, loaded by src/bin.ts). */
export function main(argv: string[], hooks: LaunchHooks = {}): Promise<number> {
  return run(argv, { ...processIO(), onFirstFrame: hooks.onFirstFrame });
}
