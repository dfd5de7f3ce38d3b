import { readFileSync } from "node:fs";

/** This pi-sessions' version: from dist/src/cli/…, src/cli/… or dist/bundle/…, the package root is two to four folders up. */
export function version(): string {
  for (const rel of ["../../../package.json", "../../package.json", "../../../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), "utf8")) as { name?: string; version: string };
      if (pkg.name === "pi-sessions") return pkg.version;
    } catch {
      // try the next candidate
    }
  }
  return "unknown";
}
