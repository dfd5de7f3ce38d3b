// A JSONL export is a session pi opens: read back with pi 0.73.1's own SessionManager, it
// holds exactly the exported branch and gives the model the same context as the source
// at that branch's leaf. pi's SessionManager.open may rewrite old files, so it only ever
// sees temp copies.
import { spawnSync } from "node:child_process";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildSessionContext, SessionManager } from "@mariozechner/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import {
  cleanupTmp,
  copyStore,
  DAMAGED_STORE,
  makeTmpDir,
  PI_FIXTURE_ROOT,
  PI_STORE,
  REPO,
} from "./helpers/tmp-store.js";

interface Expected {
  file: string;
  id: string;
  leafId: string;
  tree: [string, string | null][];
  activePath: string[];
  contextMessages: number;
}
const expected: Expected[] = JSON.parse(readFileSync(join(PI_FIXTURE_ROOT, "expected.json"), "utf8")).sessions;
const rel = (e: Expected) => e.file.replace(/^agent\/sessions\//, "");

afterEach(cleanupTmp);

const json = (v: unknown[]) => v.map((m) => JSON.stringify(m));

async function exportJsonl(source: string, extra: string[] = []): Promise<string> {
  const out = join(makeTmpDir(), "export.jsonl");
  const r = await runCli(["export", source, "--format", "jsonl", "-o", out, ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return out;
}

describe.each(expected.map((e) => [rel(e), e] as const))("JSONL export of %s, opened by pi", (_n, exp) => {
  it("pi sees a new session holding the active branch, with the source's context", async () => {
    const store = copyStore(PI_STORE);
    const source = join(store, rel(exp));
    const out = await exportJsonl(source);
    const sm = SessionManager.open(out);
    const header = sm.getHeader()!;
    expect(header).toMatchObject({ type: "session", version: 3 });
    expect(header.id).not.toBe(exp.id);
    expect(header.cwd).toBe(SessionManager.open(source).getCwd());
    expect("parentSession" in header).toBe(false);
    expect(sm.getEntries().map((e) => e.id)).toEqual(exp.activePath);
    expect(sm.getLeafId()).toBe(exp.leafId);
    expect(sm.getBranch().map((e) => e.id)).toEqual(exp.activePath);
    const context = sm.buildSessionContext().messages;
    expect(context).toHaveLength(exp.contextMessages);
    expect(json(context)).toEqual(json(SessionManager.open(source).buildSessionContext().messages));
  });
});

describe("JSONL export of a branch off the active one, opened by pi", () => {
  const branched = expected.filter((e) => e.activePath.length < e.tree.length);

  it.each(branched.map((e) => [rel(e), e] as const))(
    "%s: pi's context is the source's at that branch's leaf",
    async (_n, exp) => {
      const store = copyStore(PI_STORE);
      const source = join(store, rel(exp));
      const onActive = new Set(exp.activePath);
      const off = exp.tree.find(([id]) => !onActive.has(id))![0];
      const out = await exportJsonl(source, ["--branch", off]);
      const sm = SessionManager.open(out);
      const ids = sm.getEntries().map((e) => e.id);
      expect(ids).toContain(off);
      expect(ids.some((id) => !onActive.has(id))).toBe(true);
      // A straight chain: each entry's parent is the one before it.
      sm.getEntries().forEach((e, i) => expect(e.parentId).toBe(i === 0 ? null : ids[i - 1]));
      const src = SessionManager.open(source);
      expect(json(sm.buildSessionContext().messages)).toEqual(
        json(buildSessionContext(src.getEntries(), sm.getLeafId()!).messages),
      );
    },
  );

  it("there is at least one branched fixture", () => {
    expect(branched.length).toBeGreaterThan(0);
  });
});

describe("JSONL export of legacy files, opened by pi", () => {
  it.each(["legacy-v1.jsonl", "legacy-v2.jsonl"])("%s: migrated as pi migrates it, same context", async (name) => {
    const dir = makeTmpDir();
    const source = join(DAMAGED_STORE, "--tmp-damaged--", name);
    const before = readFileSync(source);
    const out = await exportJsonl(source);
    expect(readFileSync(source).equals(before)).toBe(true);
    const sm = SessionManager.open(out);
    expect(sm.getHeader()!.version).toBe(3);
    // pi migrates (rewrites) the file it opens: give it a copy.
    const copy = join(dir, name);
    copyFileSync(source, copy);
    const piOwn = SessionManager.open(copy);
    expect(sm.getEntries()).toHaveLength(piOwn.getBranch().length);
    expect(json(sm.buildSessionContext().messages)).toEqual(json(piOwn.buildSessionContext().messages));
    expect(sm.buildSessionContext().messages.length).toBeGreaterThan(0);
  });
});

describe("the built program's export, opened by pi", () => {
  it("dist/bundle/cli.js export <id prefix> -o FILE.jsonl writes a session pi opens", () => {
    const store = copyStore(PI_STORE);
    const exp = expected.find((e) => e.activePath.length < e.tree.length)!;
    const out = join(makeTmpDir(), "branch.jsonl");
    const r = spawnSync(
      process.execPath,
      [join(REPO, "dist", "bundle", "cli.js"), "export", exp.id.slice(0, 28), "--session-dir", store, "-o", out],
      {
        cwd: REPO,
        encoding: "utf8",
        env: { PATH: process.env.PATH, HOME: makeTmpDir("pi-sessions-home-") },
      },
    );
    expect(r.stderr).toBe(`exported the branch as a session to ${out}\n`);
    expect(r.status).toBe(0);
    const sm = SessionManager.open(out);
    expect(sm.getEntries().map((e) => e.id)).toEqual(exp.activePath);
    expect(sm.buildSessionContext().messages).toHaveLength(exp.contextMessages);
  });
});
