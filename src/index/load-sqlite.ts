import { createRequire } from "node:module";

type Sqlite = typeof import("node:sqlite");

let loaded: Sqlite | undefined;

/**
 * node:sqlite, loaded on first use (most runs of the CLI never touch the index) and
 * without the one-time "SQLite is an experimental feature" warning some Node 22 releases
 * print: it would land on the user's terminal for a cache they never asked about.
 */
export function loadSqlite(): Sqlite {
  if (loaded) return loaded;
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === "string" ? warning : warning.message;
    if (/SQLite/i.test(text)) return;
    (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    loaded = createRequire(import.meta.url)("node:sqlite") as Sqlite;
  } finally {
    process.emitWarning = emit;
  }
  return loaded;
}
