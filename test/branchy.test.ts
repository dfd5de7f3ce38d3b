import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { allBranches } from "../src/export/branch.js";
import { loadSessionIndex } from "../src/store/session-index.js";
import { buildTreeView, type Gutter, MAX_INDENT, rowPrefix } from "../src/model/tree-view.js";
import { HEADER } from "./helpers/session-file.js";

/*
 * Issue 21 item 1: a comb (a long chain with a one-message side branch at every step) cost
 * the tree and `export --all-branches` memory quadratic in its length (each branch point
 * copied its parent's gutters; every root-to-leaf path was kept). Both are linear now.
 */

const STEPS = 30_000;
const dir = mkdtempSync(join(tmpdir(), "pi-sessions-comb-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function comb(steps: number): string {
  const t = "2026-05-02T09:15:00.000Z";
  const lines: string[] = [JSON.stringify({ ...HEADER, id: "comb" })];
  let parent: string | null = null;
  for (let i = 0; i < steps; i++) {
    const id = `c${i}`;
    lines.push(
      JSON.stringify({
        type: "message",
        id,
        parentId: parent,
        timestamp: t,
        message: { role: "user", content: `step ${i}`, timestamp: 1 },
      }),
    );
    lines.push(
      JSON.stringify({
        type: "message",
        id: `s${i}`,
        parentId: id,
        timestamp: t,
        message: { role: "user", content: `side ${i}`, timestamp: 1 },
      }),
    );
    parent = id;
  }
  const path = join(dir, `comb-${steps}.jsonl`);
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
}

describe("a comb-shaped session (issue 21 item 1)", () => {
  const path = comb(STEPS);

  it("the tree's rows share their gutters: one link per branch point, and a deep row draws at most MAX_INDENT levels", async () => {
    const index = await loadSessionIndex(path, { skim: true });
    const view = buildTreeView(index, "default", new Set());
    expect(view.rows.length).toBe(STEPS * 2);
    const links = new Set<Gutter>();
    for (const r of view.rows) for (let g = r.gutters; g && !links.has(g); g = g.prev) links.add(g);
    expect(links.size).toBeLessThanOrEqual(STEPS);
    const deepest = view.rows.reduce((a, r) => (r.indent > a.indent ? r : a));
    const prefix = rowPrefix(view, deepest, new Set());
    expect(prefix).toMatch(/^\+\d+ /);
    expect(prefix.length).toBeLessThan(MAX_INDENT * 3 + 12);
  });

  it("every branch keeps only its own entries", async () => {
    const index = await loadSessionIndex(path, { skim: true });
    const branches = allBranches(index);
    expect(branches).toHaveLength(STEPS);
    expect(branches.reduce((n, b) => n + b.own.length, 0)).toBe(STEPS * 2);
  });

  it("export --all-branches runs in a small heap", () => {
    const cli = join(import.meta.dirname, "..", "dist", "bundle", "cli.js");
    const r = spawnSync(process.execPath, ["--max-old-space-size=200", cli, "export", path, "--all-branches"], {
      encoding: "utf8",
      maxBuffer: 1 << 30,
      env: { PATH: process.env.PATH },
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`Branch ${STEPS} of ${STEPS}`);
  }, 60_000);
});
