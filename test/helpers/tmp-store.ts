import { appendFileSync, cpSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, found from this file (no absolute machine paths in tests). */
export const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const FIXTURES = join(REPO, "fixtures");
/** The store pi itself generated, and its expected.json (paths in it are relative to PI_FIXTURE_ROOT). */
export const PI_FIXTURE_ROOT = join(FIXTURES, "pi-generated");
export const PI_STORE = join(PI_FIXTURE_ROOT, "agent", "sessions");
export const DAMAGED_STORE = join(FIXTURES, "damaged", "sessions");

const made: string[] = [];

/** A fresh empty temp dir; removed by cleanupTmp(). */
export function makeTmpDir(prefix = "pi-sessions-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Copies a fixture store (a folder) into a fresh temp dir and returns the copy's path. */
export function copyStore(src: string): string {
  const dir = join(makeTmpDir(), "sessions");
  cpSync(src, dir, { recursive: true });
  return dir;
}

/**
 * Puts the mtime of each file (every file under a folder) back a minute, as of files last
 * written a while ago: what is read of them now is then sure to be what they hold (not
 * "racy": src/store/file-identity.ts readIsRacy), as in a store pi is not writing to at
 * that very moment. A test that writes files and at once reads them twice through the
 * index calls it between, or the index rightly reads them again.
 */
export function settle(...paths: string[]): void {
  const past = new Date(Date.now() - 60_000);
  for (const p of paths) {
    const st = lstatSync(p);
    if (st.isDirectory()) settle(...readdirSync(p).map((n) => join(p, n)));
    else if (st.isFile()) utimesSync(p, past, past);
  }
}

/** Removes every temp dir made so far; call from afterEach/afterAll. */
export function cleanupTmp(): void {
  while (made.length) rmSync(made.pop()!, { recursive: true, force: true });
}

/** A store's session files, folder by folder, each folder's names sorted. */
export function storeFiles(store: string): string[] {
  return readdirSync(store, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(store, d.name))
        .sort()
        .map((n) => join(store, d.name, n)),
    );
}

/** pi writes to a session: its last entry appended once more. */
export function piWrites(file: string): void {
  appendFileSync(file, readFileSync(file, "utf8").split("\n").slice(-2).join("\n"));
}

/**
 * The four changes a kept answer must notice, `check` run after each: pi appends to a
 * session, a new session, one deleted, an mtime set back. With `settleWrites` each write is
 * settled first (for an answer kept only once the store has settled).
 */
export async function changeFourWays(
  store: string,
  check: (what: string) => Promise<void>,
  settleWrites = false,
): Promise<void> {
  const all = storeFiles(store);
  piWrites(all[3]!);
  if (settleWrites) settle(all[3]!);
  await check("after an append");
  cpSync(all[5]!, join(all[5]!, "..", "2026-11-22T06-04-01-381Z_01a1fcb4-0000-7000-8000-000000000001.jsonl"));
  if (settleWrites) settle(store);
  await check("after a new session");
  rmSync(all[7]!);
  await check("after a session was deleted");
  const back = new Date("2025-06-01T00:00:00Z");
  utimesSync(all[1]!, back, back);
  await check("after an mtime set back");
}
