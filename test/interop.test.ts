// Interop with the real pi (@mariozechner/pi-coding-agent 0.73.1): what `rename` and
// `label` append is read back by pi's own SessionManager, and no byte that was in the
// file before ever changes. pi's SessionManager.open rewrites v1/v2 files and writes a
// header into empty ones, so it is only ever called on temp copies.
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, copyStore, DAMAGED_STORE, makeTmpDir, PI_FIXTURE_ROOT, PI_STORE } from "./helpers/tmp-store.js";

interface Expected {
  file: string;
  id: string;
  name: string | null;
  leafId: string;
  tree: [string, string | null][];
  activePath: string[];
  labels: Record<string, string>;
  contextMessages: number;
}
const expected: Expected[] = JSON.parse(readFileSync(join(PI_FIXTURE_ROOT, "expected.json"), "utf8")).sessions;
const rel = (e: Expected) => e.file.replace(/^agent\/sessions\//, "");

/** Three different shapes: a named session, a labelled one, a branched one. */
const named = expected.find((e) => e.name === "alpha fix")!;
const labelled = expected.find((e) => Object.keys(e.labels).length && !e.name)!;
const branched = expected.find((e) => e.activePath.length < e.tree.length && !e.name && !Object.keys(e.labels).length)!;
const SAMPLES = [named, labelled, branched];

interface Line {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
  [k: string]: unknown;
}

function lastLine(path: string): Line {
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim());
  return JSON.parse(lines[lines.length - 1]) as Line;
}

/** Asserts the file still starts with exactly `before`, and returns what was appended. */
function appended(path: string, before: Buffer): string {
  const after = readFileSync(path);
  expect(after.length).toBeGreaterThan(before.length);
  expect(Buffer.compare(after.subarray(0, before.length), before)).toBe(0);
  return after.subarray(before.length).toString("utf8");
}

function snapshot(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, d.name);
    if (d.isDirectory()) for (const [k, v] of snapshot(p)) out.set(k, v);
    else out.set(p, readFileSync(p));
  }
  return out;
}

let store: string;
beforeEach(() => {
  store = copyStore(PI_STORE);
});
afterEach(cleanupTmp);

describe.each(SAMPLES.map((e) => [rel(e), e] as const))("rename and label on %s, read back by pi", (_n, exp) => {
  const path = () => join(store, rel(exp));

  it("pi reads the copied fixture as expected.json says (baseline)", () => {
    const sm = SessionManager.open(path());
    expect(sm.getLeafId()).toBe(exp.leafId);
    expect(sm.getSessionName()).toBe(exp.name ?? undefined);
    expect(sm.buildSessionContext().messages.length).toBe(exp.contextMessages);
  });

  it('rename sets, then "" clears, the name pi reports; nothing before is changed', async () => {
    const p = path();
    const before = readFileSync(p);
    const r = await runCli(["rename", p, "  New\nname 🚀 研究  "]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    const added = appended(p, before);
    expect(added.endsWith("\n")).toBe(true);
    expect(added.split("\n")).toHaveLength(2); // one line, newline-terminated
    const entry = JSON.parse(added) as Line;
    expect(entry).toMatchObject({ type: "session_info", parentId: exp.leafId, name: "New name 🚀 研究" });
    expect(entry.id).toMatch(/^[0-9a-f]{8}$/);
    expect(exp.tree.some(([id]) => id === entry.id)).toBe(false);
    expect(new Date(entry.timestamp).toISOString()).toBe(entry.timestamp);

    let sm = SessionManager.open(p);
    expect(sm.getSessionName()).toBe("New name 🚀 研究");
    expect(sm.getLeafId()).toBe(entry.id);
    expect(sm.getEntries()).toHaveLength(exp.tree.length + 1);
    expect(sm.buildSessionContext().messages.length).toBe(exp.contextMessages);

    const before2 = readFileSync(p);
    expect((await runCli(["rename", p, ""])).code).toBe(0);
    const clear = JSON.parse(appended(p, before2)) as Line;
    expect(clear).toMatchObject({ type: "session_info", parentId: entry.id, name: "" });
    sm = SessionManager.open(p);
    expect(sm.getSessionName()).toBeUndefined();
    expect(sm.getLeafId()).toBe(clear.id);
    expect(sm.buildSessionContext().messages.length).toBe(exp.contextMessages);
    // Our own reader agrees with pi.
    const show = JSON.parse((await runCli(["show", p, "--json"])).stdout);
    expect(show.name).toBeNull();
    expect(show.leafId).toBe(clear.id);
  });

  it("label sets and clears labels pi reports, on the active path and off it", async () => {
    const p = path();
    const onPath = exp.activePath[1];
    const offPath = exp.tree.map(([id]) => id).find((id) => !exp.activePath.includes(id));
    const targets = offPath ? [onPath, offPath] : [onPath];
    let leaf = exp.leafId;
    for (const target of targets) {
      const before = readFileSync(p);
      const r = await runCli(["label", p, target, `mark ${target} ✅`]);
      expect(r).toMatchObject({ code: 0, stderr: "" });
      const e = JSON.parse(appended(p, before)) as Line;
      expect(e).toMatchObject({ type: "label", parentId: leaf, targetId: target, label: `mark ${target} ✅` });
      leaf = e.id;
      const sm = SessionManager.open(p);
      expect(sm.getLabel(target)).toBe(`mark ${target} ✅`);
      expect(sm.getLeafId()).toBe(e.id);
      expect(sm.buildSessionContext().messages.length).toBe(exp.contextMessages);
    }
    // Clear the first one: no `label` key, as pi writes a clear.
    const before = readFileSync(p);
    expect((await runCli(["label", p, onPath])).code).toBe(0);
    const c = JSON.parse(appended(p, before)) as Line;
    expect(c).toMatchObject({ type: "label", parentId: leaf, targetId: onPath });
    expect("label" in c).toBe(false);
    const sm = SessionManager.open(p);
    expect(sm.getLabel(onPath)).toBeUndefined();
    if (offPath) expect(sm.getLabel(offPath)).toBe(`mark ${offPath} ✅`);
    for (const [id, label] of Object.entries(exp.labels)) expect(sm.getLabel(id)).toBe(label);
    expect(sm.getLeafId()).toBe(c.id);
  });
});

describe("edge cases of appending", () => {
  it("clearing a label pi wrote: pi no longer reports it", async () => {
    const [target, label] = Object.entries(labelled.labels)[0];
    const p = join(store, rel(labelled));
    expect(SessionManager.open(p).getLabel(target)).toBe(label);
    const before = readFileSync(p);
    expect((await runCli(["label", p, target, ""])).code).toBe(0);
    appended(p, before);
    expect(SessionManager.open(p).getLabel(target)).toBeUndefined();
  });

  it("a file whose last line was cut mid-write: the fragment stays on its own line, pi reads every complete entry plus ours", async () => {
    const src = join(store, rel(branched));
    const full = readFileSync(src);
    const complete = full
      .toString("utf8")
      .split("\n")
      .filter((l) => l);
    const lastComplete = JSON.parse(complete[complete.length - 2]) as Line;
    // Cut the last line in half: no trailing newline, invalid JSON.
    const lastLen = Buffer.byteLength(complete[complete.length - 1]) + 1;
    const cut = full.subarray(0, full.length - Math.ceil(lastLen / 2));
    const p = join(store, "--home-dev-src-app--", "truncated.jsonl");
    writeFileSync(p, cut);
    const fragment = cut.subarray(full.length - lastLen).toString("utf8");
    expect(fragment).not.toContain("\n");

    const r = await runCli(["rename", p, "after a crash"]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    const added = appended(p, cut);
    expect(added.startsWith("\n")).toBe(true); // the missing newline, first
    const ours = JSON.parse(added.slice(1)) as Line;
    expect(ours.parentId).toBe(lastComplete.id);
    const text = readFileSync(p, "utf8").split("\n");
    expect(text[text.length - 3]).toBe(fragment);
    expect(text[text.length - 1]).toBe("");

    const sm = SessionManager.open(p);
    const ids = sm.getEntries().map((e) => e.id);
    expect(ids).toEqual([...branched.tree.slice(0, -1).map(([id]) => id), ours.id]);
    expect(sm.getSessionName()).toBe("after a crash");
    expect(sm.getLeafId()).toBe(ours.id);
  });

  it("an unknown entry id is an error (exit 1) and the file is byte-identical", async () => {
    const p = join(store, rel(named));
    const before = readFileSync(p);
    const r = await runCli(["label", p, "nothere1", "x"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`pi-sessions: no entry nothere1 in ${p}\n`);
    expect(readFileSync(p).equals(before)).toBe(true);
  });

  it("an ambiguous session prefix is an error (exit 1) and no file is touched", async () => {
    const snap = snapshot(store);
    for (const argv of [
      ["rename", "01a1fcb4", "x", "--session-dir", store],
      ["label", "01a1fcb4", named.leafId, "x", "--session-dir", store],
    ]) {
      const r = await runCli(argv);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/is ambiguous/);
    }
    expect(snapshot(store)).toEqual(snap);
  });

  it("rename by a unique id prefix through the store", async () => {
    const p = join(store, rel(named));
    const before = readFileSync(p);
    const r = await runCli(["rename", named.id.slice(0, 30), "by prefix"], {
      env: { PI_CODING_AGENT_SESSION_DIR: store },
    });
    expect(r).toMatchObject({ code: 0, stderr: "" });
    appended(p, before);
    expect(SessionManager.open(p).getSessionName()).toBe("by prefix");
  });

  it("label on a v1 file is refused and the file is untouched; rename of a v1 file is read by pi", async () => {
    const dir = makeTmpDir();
    const p = join(dir, "v1.jsonl");
    copyFileSync(join(DAMAGED_STORE, "--tmp-damaged--", "legacy-v1.jsonl"), p);
    const before = readFileSync(p);
    const show = JSON.parse((await runCli(["show", p, "--json"])).stdout);
    const r = await runCli(["label", p, show.entries[0].id, "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/version 1 session/);
    expect(readFileSync(p).equals(before)).toBe(true);

    expect((await runCli(["rename", p, "old but named"])).code).toBe(0);
    const ours = lastLine(p);
    expect(ours).toMatchObject({ type: "session_info", name: "old but named" });
    appended(p, before);
    // pi migrates (and rewrites) the copy: the name survives its re-chaining of ids.
    const sm = SessionManager.open(p);
    expect(sm.getSessionName()).toBe("old but named");
    expect(sm.getEntries()).toHaveLength(show.entries.length + 1);
  });

  it("rename of a path that doesn't exist is an error (exit 1) and creates no file", async () => {
    const dir = makeTmpDir();
    const p = join(dir, "missing.jsonl");
    const r = await runCli(["rename", p, "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`pi-sessions: no session file at ${p}\n`);
    expect(existsSync(p)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("rename of an empty file is refused (pi would treat it as a new session) and the file stays empty", async () => {
    const dir = makeTmpDir();
    const p = join(dir, "empty.jsonl");
    writeFileSync(p, "");
    const r = await runCli(["rename", p, "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is not a pi session/);
    expect(readFileSync(p).length).toBe(0);
  });

  it("rename/label with the wrong number of arguments is a usage error (exit 2)", async () => {
    expect((await runCli(["rename", "x"])).code).toBe(2);
    expect((await runCli(["label", "x"])).code).toBe(2);
    expect((await runCli(["label", "a", "b", "c", "d"])).code).toBe(2);
  });
});
