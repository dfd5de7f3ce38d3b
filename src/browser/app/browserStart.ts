import { resolve } from "node:path";
import type { Config } from "../../config/config.js";
import { loadPiKeybindings } from "../../config/piKeybindings.js";
import type { PiBindings } from "../keys/piKeys.js";
import type { Keymap } from "../keys/keymap.js";
import { userKeymap } from "../keys/userKeymap.js";
import type { InitOptions } from "./appReducer.js";

/** One status line for config problems: the first in full, then how many more and where to see them. */
export function configNotice(warnings: readonly string[]): string | undefined {
  if (warnings.length === 0) return undefined;
  const more = warnings.length > 1 ? ` (+${warnings.length - 1} more: pi-sessions config lists them)` : "";
  return warnings[0] + more;
}

export type StartOptions = Pick<
  InitOptions,
  "sort" | "scope" | "query" | "openInPi" | "searchToolOutput" | "notice" | "select" | "previewShare"
>;

/**
 * What the browser starts with, from the config and the command line: the key map (and
 * its warnings) and the reducer's starting options. One place, so the first screen drawn
 * before Ink (firstScreen.ts) and Ink's first frame start from the same state.
 */
export function browserStart(o: {
  config?: Config;
  query?: string;
  current?: string;
  configWarnings?: readonly string[];
  /** The user's pi keybindings.json; read from pi's agent folder when not given. */
  piKeys?: { bindings: PiBindings; warning?: string };
}): { keymap: Keymap; warnings: string[]; start: StartOptions } {
  const pi = o.piKeys ?? loadPiKeybindings();
  const own = userKeymap(o.config?.keys ?? {}, pi.bindings);
  const keymap = own.keymap;
  // pi's file first: its one line, then the config's own warnings.
  const warnings = [...(pi.warning ? [pi.warning] : []), ...own.warnings];
  const threaded = o.config?.threaded && o.config.sort === "recent";
  return {
    keymap,
    warnings,
    start: {
      sort: threaded ? "threaded" : o.config?.sort,
      scope: o.config?.scope,
      query: o.query,
      openInPi: o.current ? resolve(o.current) : undefined,
      searchToolOutput: o.config?.searchToolOutput,
      notice: configNotice([...(o.configWarnings ?? []), ...warnings]),
    },
  };
}
