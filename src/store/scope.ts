import { basename, dirname, resolve } from "node:path";

/**
 * pi's folder name for a project's sessions in its default store (getDefaultSessionDirPath):
 * the resolved cwd without its leading separator, with `/`, `\` and `:` turned into `-`.
 */
export function cwdFolderName(cwd: string): string {
  return `--${resolve(cwd)
    .replace(/^[/\\]/, "")
    .replace(/[/\\:]/g, "-")}--`;
}

/**
 * Which sessions `list(cwd)` gives, as pi 1.5.2 decides it, for a store that may hold both
 * layouts. A file in a project folder (`--<cwd>--/`) belongs to that folder's project,
 * whatever its header says (an `/import`ed session lands in the folder it was imported to).
 * A file directly in a custom session folder belongs to the project its header cwd names,
 * compared after resolving (`/a/./b/` is `/a/b`); an empty cwd belongs to none. A store that
 * is itself the project's folder is all in scope.
 */
export function cwdScope(storeDir: string, cwd: string): (s: { path: string; cwd: string }) => boolean {
  const inFolder = cwdScopeByFolder(storeDir, cwd);
  return (s) => inFolder(dirname(s.path), s.cwd);
}

/** cwdScope as a file's folder and its session's cwd decide it (the file's own name never does). */
export function cwdScopeByFolder(storeDir: string, cwd: string): (dir: string, sessionCwd: string) => boolean {
  const root = resolve(storeDir);
  const folder = cwdFolderName(cwd);
  const want = resolve(cwd);
  return (dir, sessionCwd) => {
    if (basename(dir) === folder) return true;
    // Another project's folder of the default store.
    if (resolve(dirname(dir)) === root) return false;
    // Directly in a custom folder (or, defensively, anywhere else): by the header's cwd.
    return sessionCwd !== "" && resolve(sessionCwd) === want;
  };
}
