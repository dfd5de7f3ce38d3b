import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { rowText, toolCallMap } from "../../src/model/row-text.js";
import { loadSessionIndex, type SessionIndex } from "../../src/store/session-index.js";
import { buildTreeView, siblingBranch } from "../../src/model/tree-view.js";
import { sanitizeLine } from "../../src/text/sanitize.js";
import { KEY, ROOT, startApp, type RunningApp } from "./pty.js";
import { pressCommand } from "./driver.js";

const FIXTURE = join(ROOT, "fixtures", "pi-generated", "agent", "sessions");
const apps: RunningApp[] = [];
const dirs: string[] = [];
afterEach(() => apps.splice(0).forEach((a) => a.kill()));
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function sessionFiles(store: string): string[] {
  return readdirSync(store, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(store, d.name))
        .filter((f) => f.endsWith(".jsonl"))
        .map((f) => join(store, d.name, f)),
    )
    .sort();
}

/** A branched session (two leaves) whose leaf has a sibling branch to jump to. */
async function findBranched(store: string): Promise<{ path: string; index: SessionIndex; sibling: string }> {
  for (const path of sessionFiles(store)) {
    const index = await loadSessionIndex(path, { skim: true });
    const parents = new Set(index.nodes.map((n) => n.parentId));
    if (index.nodes.filter((n) => !parents.has(n.id)).length < 2 || !index.leafId) continue;
    const view = buildTreeView(index, "default", new Set());
    const at = view.rowOf.get(index.leafId);
    if (at === undefined) continue;
    const to = siblingBranch(view, at, 1);
    if (to !== at) return { path, index, sibling: view.rows[to].id };
  }
  throw new Error("no branched session in the fixture store");
}

describe("branch tree in a real terminal", () => {
  it("v after the session file was replaced or removed under the tree: a note, never a crash (issue 21 item 4)", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "pi-sessions-tree-e2e-"));
    dirs.push(tmp);
    const store = join(tmp, "sessions");
    cpSync(FIXTURE, store, { recursive: true });
    const { path, index } = await findBranched(store);
    const app = startApp(["--session-dir", store, "--all"], { cwd: tmp });
    apps.push(app);
    await app.waitFor((s) => s.includes("❯") && s.includes("sort:") && !s.includes("scanning"));
    await app.press("/");
    await app.type(index.header.id.slice(-12));
    await app.waitFor((s) => /\b1\/\d+/.test(s.split("\n")[0]));
    await app.press(KEY.enter);
    await app.press("t");
    await app.waitFor((s) => s.includes("← active"));
    // Another session's bytes under the same name, as `mv other.jsonl <session>` leaves it.
    writeFileSync(
      `${path}.tmp`,
      '{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}\n',
    );
    renameSync(`${path}.tmp`, path);
    await app.press("v");
    await app.waitFor("cannot show this part");
    await app.press("q");
    await app.waitFor((s) => s.includes("← active") || s.includes("tree"));
    rmSync(path);
    await app.press("v");
    await app.waitFor("cannot show this part");
    await app.press("q", "q", "q");
    expect((await app.exited).exitCode).toBe(0);
  });

  it("opens a branched session's tree, jumps to the sibling branch, labels, forks, u undoes the fork; the files on disk say so", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "pi-sessions-tree-e2e-"));
    dirs.push(tmp);
    const store = join(tmp, "sessions");
    cpSync(FIXTURE, store, { recursive: true });
    const { path: source, index, sibling } = await findBranched(store);
    const before = readFileSync(source);
    const filesBefore = new Set(readdirSync(dirname(source)));
    const siblingText = sanitizeLine(rowText(index.byId.get(sibling)!, toolCallMap(index)).text).slice(0, 12);

    // The trash (for u after the fork) and its log in the temp folder.
    const env = { XDG_DATA_HOME: join(tmp, "data"), XDG_STATE_HOME: join(tmp, "state") };
    const app = startApp(["--session-dir", store, "--all"], { cwd: tmp, env });
    apps.push(app);
    await app.waitFor((s) => s.includes("❯") && s.includes("sort:") && !s.includes("scanning"));
    // Narrow the list to the session by its id (unique), then open its tree.
    const idTail = index.header.id.slice(-12);
    await app.press("/");
    await app.waitFor((s) => s.split("\n")[1]?.startsWith("/") ?? false);
    await app.type(idTail);
    await app.waitFor((s) => /\b1\/\d+/.test(s.split("\n")[0]));
    // Enter keeps the query: one key, handled in order after the typing (KeyStream).
    await pressCommand(app, "search.submit");
    await app.waitFor((s) => s.includes("q quit"));
    await app.press("t");
    await app.waitFor((s) => s.includes("tree ·") && s.includes("filter: default") && s.includes("← active"));

    // ] : the next sibling branch at the branch point above the leaf.
    await app.press("]");
    await app.waitFor((s) => s.split("\n").some((l) => l.includes("❯") && l.includes(siblingText)));

    // L : label it (the copy was just written, so the recent-change warning comes first).
    await app.press("L");
    await app.waitFor("Label the entry");
    await app.type("e2e-label");
    await app.press(KEY.enter);
    await app.waitFor("write anyway");
    await app.press("y");
    await app.waitFor((s) => s.split("\n").some((l) => l.includes("❯") && l.includes("[e2e-label]")));

    // f : fork here; back in the list with the fork selected.
    await app.press("f");
    const screen = await app.waitFor("forked →");
    expect(screen).not.toContain("tree ·");

    // The fork: a new file in the same folder whose header points at the source.
    const created = readdirSync(dirname(source)).filter((f) => !filesBefore.has(f) && f.endsWith(".jsonl"));
    expect(created).toHaveLength(1);
    expect(screen).toContain(created[0].slice(0, 20));
    const forkPath = join(dirname(source), created[0]);
    const header = JSON.parse(readFileSync(forkPath, "utf8").split("\n")[0]);
    expect(header.type).toBe("session");
    expect(header.parentSession).toBe(resolve(source));
    expect(header.id).not.toBe(index.header.id);
    expect(basename(created[0])).toMatch(/\.jsonl$/);

    // u takes the fork back, to the trash (one key wrote it; one key undoes it).
    await app.press("u");
    await app.waitFor("Fork undone (moved to the trash)");
    expect(existsSync(forkPath)).toBe(false);
    expect(readdirSync(join(tmp, "data", "Trash", "files"))).toHaveLength(1);
    await app.press("q");
    expect((await app.exited).exitCode).toBe(0);

    // The source: earlier bytes unchanged, one label entry appended.
    const after = readFileSync(source);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const added = after.subarray(before.length).toString("utf8").trim().split("\n");
    expect(added).toHaveLength(1);
    const label = JSON.parse(added[0]);
    expect(label).toMatchObject({ type: "label", targetId: sibling, label: "e2e-label" });
  });
});
