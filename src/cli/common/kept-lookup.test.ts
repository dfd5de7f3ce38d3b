import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE, settle } from "../../../test/helpers/tmp-store.js";
import { indexPathFor } from "../../index/index-location.js";
import type { Diagnostic } from "../../model/types.js";
import type { CliIO } from "./io.js";
import type { KeptFile } from "./kept-file.js";
import { discoverKept, keptFileFor, keptFor, lookupKept, unreadableSinceDiscovery } from "./kept-lookup.js";

afterEach(() => cleanupTmp());

function setup() {
  const store = copyStore(PI_STORE);
  settle(store);
  const env = { PI_SESSIONS_CACHE_DIR: makeTmpDir() };
  const said: string[] = [];
  const io: CliIO = { stdout: () => {}, stderr: (t) => void said.push(t), cwd: store, env, isTTY: false };
  const lookup = () => lookupKept(store, io, "k", (a) => Buffer.from(a.out).toString());
  return { store, env, said, lookup, indexPath: indexPathFor(store, env)! };
}

/** Two runs on the same store: the second keeps "the answer". */
async function keepAnswer(lookup: ReturnType<typeof setup>["lookup"]) {
  for (let i = 0; i < 2; i++) {
    const k = await lookup();
    k.keep?.({ out: Buffer.from("the answer"), err: "" });
    k.index()?.close();
  }
}

describe("lookupKept", () => {
  it("keeps an answer once two runs saw the same store, and serves it without opening the index", async () => {
    const { said, lookup, indexPath } = setup();
    const first = await lookup();
    expect(first.kept).toBeUndefined();
    expect(first.keep).toBeUndefined(); // the store has not been seen settled yet
    first.index()?.close();
    const second = await lookup();
    expect(second.keep).toBeDefined();
    second.keep!({ out: Buffer.from("the answer"), err: "" });
    second.index()?.close();

    // A garbage index file: opening it would find it damaged and build it again.
    writeFileSync(indexPath, "not a database");
    const third = await lookup();
    expect(third.kept).toBe("the answer");
    expect(readFileSync(indexPath, "utf8")).toBe("not a database");
    // Asked for, the index is opened then (and the damaged one rebuilt).
    const index = third.index();
    expect(index).toBeDefined();
    expect(readFileSync(indexPath).subarray(0, 15).toString()).toBe("SQLite format 3");
    index!.close();
    expect(said).toEqual([]);
  });

  it("reads the answer of the store before it changed only when asked for it", async () => {
    const { store, env, lookup } = setup();
    await keepAnswer(lookup);
    const io: CliIO = { stdout: () => {}, stderr: () => {}, cwd: store, env, isTTY: false };
    const grown = (await lookup()).found.files[0].path;
    appendFileSync(grown, "\n");
    settle(grown);
    const store2 = await discoverKept(store, io);
    const plain = keptFor(store2, "k", () => "x");
    expect(plain.kept).toBeUndefined();
    expect(plain.earlier).toBeUndefined();
    const asked = keptFor(store2, "k", () => "x", { earlier: true });
    expect(Buffer.from(asked.earlier!.out).toString()).toBe("the answer");
    store2.index()?.close();
  });

  it("serves nothing once a file has changed, and nothing with the index turned off", async () => {
    const { store, env, lookup } = setup();
    await keepAnswer(lookup);
    const served = await lookup();
    expect(served.kept).toBe("the answer");
    appendFileSync(served.found.files[0].path, "\n");
    const changed = await lookup();
    expect(changed.kept).toBeUndefined();
    changed.index()?.close();
    env.PI_SESSIONS_INDEX = "0";
    const io: CliIO = { stdout: () => {}, stderr: () => {}, cwd: store, env, isTTY: false };
    const off = await lookupKept(store, io, "k", () => "x");
    expect(off.kept).toBeUndefined();
    expect(off.index()).toBeUndefined();
  });
});

describe("keptFileFor", () => {
  it("takes a read that fails inside `use` for a miss, and lets the file go", async () => {
    const { store, env, lookup } = setup();
    await keepAnswer(lookup);
    const io: CliIO = { stdout: () => {}, stderr: () => {}, cwd: store, env, isTTY: false };
    let closed = 0;
    const k = keptFileFor(await discoverKept(store, io), "k", (f: KeptFile) => {
      const close = f.close;
      f.close = () => {
        closed++;
        close();
      };
      throw Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" });
    });
    expect(k.kept).toBeUndefined();
    expect(closed).toBe(1);
    expect(k.index()).toBeDefined();
    k.index()?.close();
  });
});

describe("unreadableSinceDiscovery", () => {
  const discovered: Diagnostic = { path: "/s/a.jsonl", kind: "unreadable", reason: "ENOENT" };
  const found = { diagnostics: [discovered] };

  it("is false for what discovery could not read (its fingerprint holds it) and for files read but not sessions", () => {
    const damaged: Diagnostic = { path: "/s/b.jsonl", kind: "not-a-session", reason: "no header" };
    expect(unreadableSinceDiscovery([discovered, damaged], found)).toBe(false);
    expect(unreadableSinceDiscovery([{ ...discovered, reason: "cannot read (EIO)" }], found)).toBe(false);
    expect(unreadableSinceDiscovery([], found)).toBe(false);
  });

  it("is true for a file the scan could not read that discovery met no problem with", () => {
    const eio: Diagnostic = { path: "/s/c.jsonl", kind: "unreadable", reason: "cannot read (EIO)" };
    expect(unreadableSinceDiscovery([discovered, eio], found)).toBe(true);
    expect(unreadableSinceDiscovery([eio], { diagnostics: [] })).toBe(true);
  });
});
