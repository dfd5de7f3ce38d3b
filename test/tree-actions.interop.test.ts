import { SessionManager, buildSessionContext } from "@mariozechner/pi-coding-agent";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { labelEntry } from "../src/actions/label.js";
import { forkAtEntry } from "../src/actions/fork.js";
import { NAVIGATE_TYPE, resumeAtEntry } from "../src/actions/navigate.js";
import { loadSessionIndex } from "../src/store/session-index.js";
import { activePath } from "../src/model/tree.js";

const STORE = join(import.meta.dirname, "..", "fixtures", "pi-generated", "agent", "sessions");
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function copyStore(): string {
  const dir = mkdtempSync(join(tmpdir(), "pi-sessions-tree-"));
  dirs.push(dir);
  cpSync(STORE, dir, { recursive: true });
  return dir;
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => join(dir, f));
}

/** A branched session of the copy and an entry that lies off its active path. */
async function branched(dir: string) {
  for (const path of files(dir)) {
    const index = await loadSessionIndex(path);
    const active = new Set(activePath(index));
    const off = index.nodes.find((n) => !active.has(n.id) && n.role === "assistant");
    if (off) return { path, index, off };
  }
  throw new Error("fixture store has no branched session");
}

const messageTexts = (msgs: unknown[]) => msgs.map((m) => JSON.stringify(m));

describe("resume at entry (navigate) read back by pi", () => {
  it("pi's leaf becomes our marker and its context is root → target, nothing from the abandoned branch", async () => {
    const dir = copyStore();
    const { path, off } = await branched(dir);
    const before = readFileSync(path);
    const oldLeaf = SessionManager.open(path).getLeafId();
    const written = await resumeAtEntry(path, off.id);
    expect(written).not.toBeNull();
    expect(written!.parentId).toBe(off.id);
    expect(written!.customType).toBe(NAVIGATE_TYPE);
    expect(written!.data).toEqual({ from: oldLeaf });
    const after = readFileSync(path);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);

    const sm = SessionManager.open(path);
    expect(sm.getLeafId()).toBe(written!.id);
    const expected = buildSessionContext(sm.getEntries(), off.id).messages;
    const got = sm.buildSessionContext().messages;
    expect(messageTexts(got)).toEqual(messageTexts(expected));
    const abandoned = buildSessionContext(sm.getEntries(), oldLeaf).messages.at(-1);
    expect(messageTexts(got)).not.toContain(JSON.stringify(abandoned));
  });

  it("writes nothing when the entry already is the leaf", async () => {
    const dir = copyStore();
    const path = files(dir)[0];
    const leaf = SessionManager.open(path).getLeafId()!;
    const before = readFileSync(path);
    expect(await resumeAtEntry(path, leaf)).toBeNull();
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe("fork at entry read back by pi", () => {
  it("makes a new file pi opens with the same context at that entry, labels re-created, parentSession = source", async () => {
    const dir = copyStore();
    const { path, off } = await branched(dir);
    // A label on the path to the fork point, and one off it (must not be copied).
    const index = await loadSessionIndex(path);
    const onPath = activePath({ tree: index.tree, leafId: off.id });
    const labelled = onPath.find((id) => index.byId.get(id)!.role === "user")!;
    await labelEntry(path, labelled, "start here");
    const elsewhere = index.nodes.find((n) => !onPath.includes(n.id))!;
    await labelEntry(path, elsewhere.id, "not copied");
    const sourceBytes = readFileSync(path);

    const fork = await forkAtEntry(path, off.id);
    expect(readFileSync(path).equals(sourceBytes)).toBe(true);
    const source = SessionManager.open(path);
    const sm = SessionManager.open(fork.path);
    expect(sm.getHeader()!.parentSession).toBe(path);
    expect(sm.getHeader()!.cwd).toBe(source.getHeader()!.cwd);
    expect(sm.getHeader()!.id).not.toBe(source.getHeader()!.id);
    expect(sm.getLabel(labelled)).toBe("start here");
    expect(sm.getLabel(elsewhere.id)).toBeUndefined();
    expect(messageTexts(sm.buildSessionContext().messages)).toEqual(
      messageTexts(buildSessionContext(source.getEntries(), off.id).messages),
    );
    expect(
      sm
        .getEntries()
        .filter((e) => e.type !== "label")
        .map((e) => e.id),
    ).toEqual(onPath.filter((id) => index.byId.get(id)!.type !== "label"));
    // The fork lists under its parent.
    const forkIndex = await loadSessionIndex(fork.path);
    expect(forkIndex.header.parentSession).toBe(path);
  });

  it("forks a point with no assistant reply yet (pi 1.5.2 writes a session at its first user message); refuses one with no message", async () => {
    const dir = copyStore();
    const path = files(dir)[0];
    const index = await loadSessionIndex(path);
    const firstUser = index.nodes.find((n) => n.role === "user")!;
    const count = files(dir).length;
    const fork = await forkAtEntry(path, firstUser.id);
    expect(files(dir)).toHaveLength(count + 1);
    expect(SessionManager.open(fork.path).getLeafId()).toBe(firstUser.id);
    const before = activePath({ tree: index.tree, leafId: firstUser.id }).slice(0, -1);
    const noMessage = before.find((id) => !index.byId.get(id)!.role);
    if (noMessage) {
      await expect(forkAtEntry(path, noMessage)).rejects.toThrow(/no message/);
      expect(files(dir)).toHaveLength(count + 1);
    }
  });
});
