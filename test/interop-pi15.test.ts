// Interop with pi: everything pi-sessions writes into a store pi 1.5.2 wrote (rename, label,
// resume at an entry, fork, delete and restore) is read back by the reference pi's (1.6.0)
// own SessionManager in a child process, and no byte that was in a file before ever changes;
// a fork is the file pi's own /fork writes, 1.6.0's and 1.5.2's.
// pi may rewrite a file it opens (a missing trailing newline), so it reads copies only.
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forkAtEntry } from "../src/actions/fork.js";
import { NAVIGATE_TYPE, resumeAtEntry } from "../src/actions/navigate.js";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, FIXTURES, makeTmpDir } from "./helpers/tmp-store.js";
import { askPi, DEFAULT_PI, oracleSkipReason, PI_REFERENCE, type PiSession } from "./oracle/pi15.js";

const VERSIONS = [PI_REFERENCE, DEFAULT_PI];
const skip = VERSIONS.map((v) => oracleSkipReason(v)).find(Boolean);
const SRC = join(FIXTURES, "pi-1.5.2");
const expected = JSON.parse(readFileSync(join(SRC, "expected.json"), "utf8"));
const PREFIX: string = expected.agentDir.replace(/\/agent$/, "");

let root: string;
let view: string;
const toCopy = (p: string) => root + p.slice(PREFIX.length);
const env = () => ({
  PI_CODING_AGENT_DIR: join(root, "agent"),
  HOME: root,
  XDG_DATA_HOME: join(root, "xdg-data"),
  XDG_STATE_HOME: join(root, "xdg-state"),
});

beforeAll(() => {
  root = makeTmpDir("pi15-interop-");
  cpSync(SRC, root, { recursive: true });
  view = join(root, "pi-view");
  mkdirSync(view);
});
afterAll(cleanupTmp);

let viewCount = 0;
/** The reference pi's reading of `file` (a copy of it), optionally with the leaf moved to `leafId` in memory. */
async function piReads(file: string, leafId?: string): Promise<PiSession> {
  const copy = join(view, `${viewCount++}-${basename(file)}`);
  copyFileSync(file, copy);
  return (await askPi<PiSession>([{ op: "describe", file: copy, leafId }], { version: PI_REFERENCE }))[0];
}

/** The file still starts with exactly `before`. */
function expectPrefixKept(path: string, before: Buffer) {
  const after = readFileSync(path);
  expect(after.length).toBeGreaterThanOrEqual(before.length);
  // A file without a trailing newline gets exactly one before the first append.
  expect(Buffer.compare(after.subarray(0, before.length), before)).toBe(0);
}

/** Sessions of every new shape: usage leaf, context edits, compaction, branch summary, no reply yet, no trailing newline, custom id. */
const CASES = ["S1", "S2", "S3", "S4", "S7", "S9a", "S6"] as const;

describe.skipIf(skip).each(CASES.map((c) => [c] as const))("%s written by pi-sessions, read by pi 1.6.0", (c) => {
  const file = () => toCopy(expected.notes[c].file);

  it("rename and label: pi reports the name and the label; earlier bytes unchanged", async () => {
    const path = file();
    const before = readFileSync(path);
    const piBefore = await piReads(path);
    const target = piBefore.branch[0];
    expect((await runCli(["rename", path, `renamed ${c}`], { env: env() })).code).toBe(0);
    expect((await runCli(["label", path, target, `mark ${c}`], { env: env() })).code).toBe(0);
    expectPrefixKept(path, before);
    const after = await piReads(path);
    expect(after.name).toBe(`renamed ${c}`);
    expect(after.labels[target]).toBe(`mark ${c}`);
    // The conversation is pi's as before: same entries, same model context.
    expect(after.entryCount).toBe(piBefore.entryCount + 2);
    expect(after.contextMessages).toEqual(piBefore.contextMessages);
    expect(after.sessionStats).toEqual(piBefore.sessionStats);
  });

  it("resume at an earlier entry: pi opens with the context it had there", async () => {
    const path = file();
    const piBefore = await piReads(path);
    const target = piBefore.branch.length > 1 ? piBefore.branch[piBefore.branch.length - 2] : piBefore.branch[0];
    const atTarget = await piReads(path, target);
    const before = readFileSync(path);
    const written = await resumeAtEntry(path, target);
    expectPrefixKept(path, before);
    const after = await piReads(path);
    if (written) {
      expect(written.customType).toBe(NAVIGATE_TYPE);
      expect(after.leafId).toBe(written.id);
      expect(after.branch).toEqual([...atTarget.branch, written.id]);
    }
    expect(after.contextMessages).toEqual(atTarget.contextMessages);
  });

  it("fork at an entry: pi reads the new session with the source's context there, labels on the path kept, cwd resolved", async () => {
    const path = file();
    const piSource = await piReads(path);
    const target =
      piSource.branch.find((id, i) => i > 0 && i === piSource.branch.length - 1) ??
      piSource.branch[piSource.branch.length - 1];
    const atTarget = await piReads(path, target);
    const sourceBytes = readFileSync(path);
    const fork = await forkAtEntry(path, target);
    expect(readFileSync(path).equals(sourceBytes)).toBe(true);
    const f = await piReads(fork.path);
    expect(f.header.parentSession).toBe(path);
    expect(f.header.cwd).toBe(resolve(String(piSource.header.cwd)));
    expect(f.header.id).not.toBe(piSource.header.id);
    expect(f.contextMessages).toEqual(atTarget.contextMessages);
    const onPath = new Set(atTarget.branch);
    const wantLabels = Object.fromEntries(Object.entries(piSource.labels).filter(([id]) => onPath.has(id)));
    expect(f.labels).toEqual(wantLabels);
  });
});

describe.skipIf(skip)("forks pi 1.5.2 writes and pi-sessions now writes too", () => {
  it("a fork at a user message with no reply yet (pi writes a session at its first user message)", async () => {
    const path = toCopy(expected.notes.S7.file);
    const recorded: string[] = expected.files[expected.notes.S7.file].pi.branch;
    const user = recorded[recorded.length - 1];
    const fork = await forkAtEntry(path, user);
    const f = await piReads(fork.path);
    // After the path come the labels re-created on it (an earlier test labelled its first entry).
    expect(f.branch.slice(0, recorded.length)).toEqual(recorded);
    expect(f.branch.length - recorded.length).toBe(Object.keys(f.labels).length);
    expect(f.contextRoles).toEqual(["user"]);
  });

  it("a fork of a session whose header cwd is not normalized writes the resolved cwd, as pi's fork", async () => {
    const dotted = Object.keys(expected.files).find((p) => expected.files[p].info?.cwd?.includes("/./"))!;
    const src = toCopy(dotted);
    const pi = await piReads(src);
    const fork = await forkAtEntry(src, pi.leafId!);
    const f = await piReads(fork.path);
    expect(String(pi.header.cwd)).toContain("/./");
    expect(f.header.cwd).toBe(resolve(String(pi.header.cwd)));
  });
});

describe.skipIf(skip)("a fork is the file pi's own /fork writes", () => {
  /** Lines with what is new in every fork (header id and time, label entry ids) taken out. */
  function normalized(path: string): unknown[] {
    const lines = readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const labelIds = new Map<string, string>();
    return lines.map((e, i) => {
      if (i === 0) return { ...e, id: "-", timestamp: "-", parentSession: "-" };
      if (e.type !== "label") return e;
      labelIds.set(e.id, `label${labelIds.size}`);
      return { ...e, id: labelIds.get(e.id), parentId: labelIds.get(e.parentId) ?? e.parentId };
    });
  }

  it("every session of pi's store, forked at its leaf and mid-branch: same entries, same labels, same header", async () => {
    const fresh = makeTmpDir("pi15-forks-");
    cpSync(SRC, fresh, { recursive: true });
    const sessions = Object.keys(expected.files)
      .filter((p) => expected.files[p].info)
      .map((p) => fresh + p.slice(PREFIX.length));
    const jobs: { file: string; leafId: string }[] = [];
    for (const file of sessions) {
      const pi = await piReads(file);
      for (const leafId of new Set([pi.branch[pi.branch.length - 1], pi.branch[Math.floor(pi.branch.length / 2)]]))
        jobs.push({ file, leafId });
    }
    for (const version of VERSIONS) {
      const piOut = join(fresh, `pi-forks-${version}`);
      mkdirSync(piOut);
      const piForks = await askPi<string | null>(
        jobs
          .map((j) => ({ op: "fork" as const, file: join(view, basename(j.file)), leafId: j.leafId, outDir: piOut }))
          .map((q, i) => (copyFileSync(jobs[i].file, q.file), q)),
        { version },
      );
      let compared = 0;
      for (let i = 0; i < jobs.length; i++) {
        let ours: string;
        try {
          ours = (await forkAtEntry(jobs[i].file, jobs[i].leafId)).path;
        } catch (err) {
          // pi writes nothing either when the path holds no message yet.
          expect(piForks[i] === null || !existsSync(piForks[i]!), String(err)).toBe(true);
          continue;
        }
        expect(piForks[i]).not.toBeNull();
        const want = normalized(piForks[i]!);
        const got = normalized(ours);
        expect((got[0] as { cwd: string }).cwd).toBe((want[0] as { cwd: string }).cwd);
        expect(got, `${jobs[i].file} at ${jobs[i].leafId}`).toEqual(want);
        compared++;
      }
      expect(compared).toBeGreaterThan(20);
    }
  }, 120_000);
});

describe.skipIf(skip)("resume at a user message that is the first entry", () => {
  it("the position goes before it (pi's resetLeaf): pi opens with an empty context and keeps every entry", async () => {
    const path = toCopy(expected.notes.S9b.file);
    const before = await piReads(path);
    const written = await resumeAtEntry(path, null);
    expect(written?.parentId).toBeNull();
    const after = await piReads(path);
    expect(after.leafId).toBe(written!.id);
    expect(after.contextMessages).toEqual([]);
    expect(after.entryCount).toBe(before.entryCount + 1);
  });
});

describe.skipIf(skip)("delete and restore", () => {
  it("a restored session is byte-identical and pi reads it as before", async () => {
    const path = toCopy(expected.notes.S4.file);
    const bytes = readFileSync(path);
    const piBefore = await piReads(path);
    expect((await runCli(["delete", path, "--yes"], { env: env() })).code).toBe(0);
    expect(existsSync(path)).toBe(false);
    expect((await runCli(["restore", "--last"], { env: env() })).code).toBe(0);
    expect(readFileSync(path).equals(bytes)).toBe(true);
    const piAfter = await piReads(path);
    expect({ ...piAfter, header: null }).toEqual({ ...piBefore, header: null });
  });
});
