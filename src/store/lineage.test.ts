import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Lineage } from "../model/types.js";
import { resolveLineage } from "./lineage.js";

type S = { path: string; parentSessionPath?: string; lineage: Lineage };
const s = (path: string, parentSessionPath?: string): S => ({ path, parentSessionPath, lineage: { status: "none" } });

const root = mkdtempSync(join(tmpdir(), "lineage-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const store = join(root, "store");
mkdirSync(join(store, "--a--"), { recursive: true });
mkdirSync(join(store, "--b--"), { recursive: true });
const A = join(store, "--a--", "parent.jsonl");
const B = join(store, "--b--", "child.jsonl");
writeFileSync(A, "");
writeFileSync(B, "");

describe("resolveLineage", () => {
  it("no parentSession → none", () => {
    const [x] = resolveLineage([s(A)]);
    expect(x.lineage).toEqual({ status: "none" });
  });

  it("the same file by path", () => {
    const [, child] = resolveLineage([s(A), s(B, A)]);
    expect(child.lineage).toEqual({ status: "resolved", path: A, by: "realpath" });
  });

  it("the same file through a symlinked store (realpath)", () => {
    const link = join(root, "link");
    symlinkSync(store, link);
    const [, child] = resolveLineage([s(A), s(B, join(link, "--a--", "parent.jsonl"))]);
    expect(child.lineage).toEqual({ status: "resolved", path: A, by: "realpath" });
  });

  it("a store opened through a symlink, its parents named by their real paths", () => {
    const link = join(root, "link2");
    symlinkSync(store, link);
    const viaLink = (p: string) => p.replace(store, link);
    const [, child] = resolveLineage([s(viaLink(A)), s(viaLink(B), A)]);
    expect(child.lineage).toEqual({ status: "resolved", path: viaLink(A), by: "realpath" });
  });

  it("a session file that is itself a symlink: found by its own realpath", () => {
    const target = join(root, "elsewhere.jsonl");
    writeFileSync(target, "");
    const linked = join(store, "--a--", "linked.jsonl");
    symlinkSync(target, linked);
    const [, child] = resolveLineage([s(linked), s(B, target)]);
    expect(child.lineage).toEqual({ status: "resolved", path: linked, by: "realpath" });
  });

  it("a store copied from another machine: matched by file name", () => {
    const [, child] = resolveLineage([s(A), s(B, "/home/kim/.pi/agent/sessions/--a--/parent.jsonl")]);
    expect(child.lineage).toEqual({ status: "resolved", path: A, by: "filename" });
  });

  it("a relative parentSession (old forkFrom) is relative to the child's folder", () => {
    const [, child] = resolveLineage([s(A), s(B, "../--a--/parent.jsonl")]);
    expect(child.lineage).toEqual({ status: "resolved", path: A, by: "realpath" });
  });

  it("a parent not in the store → missing", () => {
    const [, child] = resolveLineage([s(A), s(B, "/elsewhere/gone.jsonl")]);
    expect(child.lineage).toEqual({ status: "missing" });
  });

  it("a session naming itself as parent → missing, not a loop", () => {
    const [x] = resolveLineage([s(A, A)]);
    expect(x.lineage).toEqual({ status: "missing" });
  });

  it("an ambiguous file name (two sessions share it) is not guessed", () => {
    const A2 = join(store, "--b--", "parent.jsonl");
    const [, , child] = resolveLineage([s(A), s(A2), s(B, "/other/machine/parent.jsonl")]);
    expect(child.lineage).toEqual({ status: "missing" });
  });
});
