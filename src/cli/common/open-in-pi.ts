import { statSync } from "node:fs";
import { output } from "./output.js";
import { mayBeOpenInPi, OPEN_IN_PI_WARNING } from "../../actions/recent-write.js";
import { fsPath } from "../../store/fs-path.js";
import { sanitizeLine } from "../../text/sanitize.js";
import type { CliIO } from "./io.js";

/** The one rule of every write path, said to a person at a terminal: pi may have the file open. */
export function warnIfOpenInPi(path: string, io: CliIO): void {
  if (!io.isTTY) return;
  if (mayBeOpenInPi(statSync(fsPath(path)).mtimeMs, Date.now()))
    output(io).note(`warning: ${sanitizeLine(path)} ${OPEN_IN_PI_WARNING}\n`);
}
