// `list --json` relaunched after pi wrote to a session (its kept answer no longer true): the
// sessions the snapshot still holds are rows of its columns with their text out of its list
// text, not whole summaries made again (issue 35: at 50,000 sessions 400 MB), and the answer
// is the files' own: the same bytes as without the index, after an append, a new session, a
// deleted one (a fork's parent too), an mtime set back.
import { cpSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { IndexedScans } from "../src/index/summary-cache.js";
import { runCli } from "./helpers/cli.js";
import {
  changeFourWays,
  cleanupTmp,
  copyStore,
  makeTmpDir,
  piWrites,
  REPO,
  settle,
  storeFiles as files,
} from "./helpers/tmp-store.js";

afterEach(() => {
  vi.restoreAllMocks();
  cleanupTmp();
});

/**
 * A copy of the generated store listed once with the index, then written to by pi: `run(on)`
 * lists it with the index or without it (the files' own answer).
 */
async function listedThenWritten() {
  const store = copyStore(join(REPO, "fixtures", "pi-generated", "agent", "sessions"));
  settle(store);
  const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
  const run = (on: boolean) =>
    runCli(["list", "--all", "--json", "--session-dir", store], {
      env: on ? env : { ...env, PI_SESSIONS_INDEX: "0" },
    });
  expect((await run(true)).code).toBe(0);
  piWrites(files(store)[3]);
  return run;
}

describe("list --json after the store changed", () => {
  it("answers from the snapshot's rows and list text, byte for byte what the files say", async () => {
    const store = copyStore(join(REPO, "fixtures", "pi-generated", "agent", "sessions"));
    settle(store);
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    const asks = [
      ["list", "--all", "--json"],
      ["list", "--all", "--json", "--sort", "created"],
      ["list", "--all", "--json", "--sort", "name"],
      ["list", "--all", "--json", "--sort", "messages"],
      ["list", "--all", "--json", "--sort", "size"],
      ["list", "--json", "--cwd", "/home/dev/src/app"],
    ];
    const run = (args: string[], on: boolean) =>
      runCli([...args, "--session-dir", store], { env: on ? env : { ...env, PI_SESSIONS_INDEX: "0" } });
    // Made and kept (a first run folds; the second is served).
    for (const args of asks) for (let i = 0; i < 2; i++) expect((await run(args, true)).code).toBe(0);

    const lookup = vi.spyOn(IndexedScans.prototype, "lookup");
    const fromText = vi.spyOn(IndexedScans.prototype, "keptPieces");
    const same = async (what: string) => {
      for (const args of asks) {
        const off = await run(args, false);
        expect(off.code).toBe(0);
        const on = await run(args, true);
        expect({ what, args, on }).toEqual({ what, args, on: { ...off, stderr: off.stderr } });
      }
      // Not one summary made whole out of the snapshot: its rows were taken as rows.
      expect(lookup).not.toHaveBeenCalled();
      expect(fromText).toHaveBeenCalled();
      fromText.mockClear();
    };

    const all = files(store);
    piWrites(all[3]);
    await same("after an append");
    const [dir, name] = [join(all[5], ".."), "2026-11-22T06-04-01-381Z_01a1fcb4-0000-7000-8000-000000000001.jsonl"];
    cpSync(all[5], join(dir, name));
    await same("after a new session");
    rmSync(all[7]);
    await same("after a session was deleted");
    // A fork's parent deleted: the fork, unchanged, says its parent is missing.
    const fork = all.find((f) => f !== all[7] && readFileSync(f, "utf8").split("\n")[0].includes('"parentSession"'));
    const parent = (JSON.parse(readFileSync(fork!, "utf8").split("\n")[0]) as { parentSession: string }).parentSession;
    const parentHere = all.find((f) => f !== all[7] && f.endsWith(parent.split("/").pop()!));
    expect(parentHere).toBeDefined();
    rmSync(parentHere!);
    await same("after a fork's parent was deleted");
    const back = new Date("2025-06-01T00:00:00Z");
    utimesSync(all[1], back, back);
    await same("after an mtime set back");
  });

  it("answers as the files do when more sessions are new than the snapshot is kept for (the scan's own answer)", async () => {
    const store = copyStore(join(REPO, "fixtures", "pi-generated", "agent", "sessions"));
    settle(store);
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    const run = (args: string[], on: boolean) =>
      runCli([...args, "--session-dir", store], { env: on ? env : { ...env, PI_SESSIONS_INDEX: "0" } });
    for (let i = 0; i < 2; i++) expect((await run(["list", "--all", "--json"], true)).code).toBe(0);
    const one = files(store)[2];
    for (let i = 0; i < 40; i++) {
      const name = `2026-11-23T06-04-${String(i).padStart(2, "0")}-381Z_01a1fcb4-0000-7000-8000-0000000001${String(i).padStart(2, "0")}.jsonl`;
      cpSync(one, join(one, "..", name));
    }
    settle(store);
    const lookup = vi.spyOn(IndexedScans.prototype, "lookup");
    for (const sort of ["recent", "name", "size"]) {
      const args = ["list", "--all", "--json", "--sort", sort];
      const off = await run(args, false);
      expect(off.code).toBe(0);
      expect(await run(args, true)).toEqual(off);
    }
    // The snapshot was made again by the first of them: its rows were no answer, the scan's were.
    expect(lookup).toHaveBeenCalled();
  });

  it("makes a kept row's text of its whole summary when its list member turns out unreadable only as it is written", async () => {
    const run = await listedThenWritten();
    // Whether a row has pieces is told without unzipping every member; the member of the
    // first row written is found damaged when its pieces are read.
    const has = vi.spyOn(IndexedScans.prototype, "keptHasPieces");
    vi.spyOn(IndexedScans.prototype, "keptPieces").mockImplementationOnce(() => undefined);
    const on = await run(true);
    expect(has).toHaveBeenCalled();
    expect(on).toEqual(await run(false));
  });

  it("makes such a row's text of its file when another process rewrote the snapshot meanwhile (no throwing mid-answer)", async () => {
    const run = await listedThenWritten();
    // The first row written: its member unreadable, and the stored snapshot another's by then.
    vi.spyOn(IndexedScans.prototype, "keptPieces").mockImplementationOnce(() => undefined);
    const whole = vi.spyOn(IndexedScans.prototype, "keptSummary").mockImplementationOnce(() => null);
    const on = await run(true);
    expect(whole).toHaveBeenCalled();
    expect(on).toEqual(await run(false));
  });

  it("unzips the list text whole at once for a sort other than newest first, not member by member", async () => {
    const store = copyStore(join(REPO, "fixtures", "pi-generated", "agent", "sessions"));
    settle(store);
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
    const run = (sort: string) => runCli(["list", "--all", "--json", "--sort", sort, "--session-dir", store], { env });
    for (let i = 0; i < 2; i++) expect((await run("recent")).code).toBe(0);
    const all = files(store);
    piWrites(all[3]);
    const jumpy = vi.spyOn(IndexedScans.prototype, "keptPiecesJumpy");
    const fromText = vi.spyOn(IndexedScans.prototype, "keptPieces");
    expect((await run("recent")).code).toBe(0);
    expect(fromText).toHaveBeenCalled();
    expect(jumpy).not.toHaveBeenCalled();
    piWrites(all[3]);
    fromText.mockClear();
    expect((await run("name")).code).toBe(0);
    expect(fromText).toHaveBeenCalled();
    expect(jumpy).toHaveBeenCalled();
  });
});

describe("list as text from the snapshot's columns", () => {
  it("is the files' own table, every sort and a folder, first run, relaunched and after the store changed", async () => {
    const store = copyStore(join(REPO, "fixtures", "pi-generated", "agent", "sessions"));
    settle(store);
    const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir(), NO_COLOR: "1" };
    const asks = [
      ...["recent", "created", "name", "messages", "size"].map((sort) => ["list", "--all", "--sort", sort]),
      ["list", "--cwd", "/home/dev/src/app"],
      ["list", "--cwd", "/home/dev/src/app", "--sort", "created"],
    ];
    const run = (args: string[], on: boolean) =>
      runCli([...args, "--session-dir", store], { env: on ? env : { ...env, PI_SESSIONS_INDEX: "0" } });
    const same = async (what: string) => {
      for (const args of asks) {
        const off = await run(args, false);
        expect(off.code).toBe(0);
        expect(off.stdout.split("\n").length).toBeGreaterThan(3);
        expect({ what, args, on: await run(args, true) }).toEqual({ what, args, on: off });
      }
    };
    // The first run reads every file (and folds the snapshot), the next take its columns.
    await same("first run");
    const columns = vi.spyOn(IndexedScans.prototype, "keptColumns");
    await same("relaunched");
    expect(columns).toHaveBeenCalled();
    await changeFourWays(store, same);
  });
});
