import { resolve } from "node:path";
import { checkStore, locateStore, storeExists, type StoreLocation } from "../store/locate.js";
import type { CliIO } from "./io.js";

/**
 * The store a command works on. `fallback` (the bundled demo store, used by `npm start`)
 * applies only when nothing was configured and ~/.pi/agent/sessions does not exist.
 */
export function storeFromArgs(flag: string | undefined, io: CliIO, fallback?: string): StoreLocation {
  const loc = locateStore({ flag, env: io.env, cwd: io.cwd, home: io.env.HOME || undefined });
  for (const w of loc.warnings ?? []) io.stderr(`pi-sessions: ${w}\n`);
  if (fallback && loc.source === "default" && !storeExists(loc)) {
    const demo: StoreLocation = { dir: resolve(io.cwd, fallback), source: "fallback" };
    checkStore(demo);
    return demo;
  }
  checkStore(loc);
  return loc;
}

