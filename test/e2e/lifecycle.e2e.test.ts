import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp } from "../helpers/tmp-store.js";
import { pressCommand, selectedLine, selectRow } from "./driver.js";
import { KEY, type RunningApp } from "./pty.js";
import { trashStore } from "./trash-store.js";

/*
 * Rename, delete to the trash, undo, bulk and the live store, in a real terminal,
 * on a temp copy of the pi-generated store with the trash and the trash log in the
 * temp dir too (XDG_DATA_HOME, XDG_STATE_HOME).
 */

const apps: RunningApp[] = [];
afterEach(() => {
  apps.splice(0).forEach((a) => a.kill());
  cleanupTmp();
});

function setup() {
  const { store, trash, start } = trashStore(apps);
  return { store, trash, app: start() };
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => join(dir, f));
}

/**
 * Waits for the scan to finish and the rows to settle in their final order (probed rows
 * re-sort as summaries arrive), then selects the first row. Under load the screen lags
 * the keys, so every step below waits for its effect before the next key.
 */
async function ready(app: RunningApp) {
  await app.waitFor((s) => !s.includes("scanning") && s.includes("30/30"));
  // The scan is done: the rows are final, and the first one is the top.
  await pressCommand(app, "list.top");
  await app.waitFor(
    (s) => (s.split("\n")[3] ?? "").startsWith("│❯") && (s.split("\n")[4] ?? "").includes("resume naïve"),
  );
}

const select = selectRow;

/** The file the open delete confirmation names (its path line may be cut at the start). */
function fileInDialog(screen: string, store: string): string {
  // The dialog is drawn over the list and preview, whose path may be cut at its start:
  // take the first whole file name on the screen that the store has.
  const names = [...screen.matchAll(/([\w.-]+\.jsonl)/g)].map((m) => m[1]);
  if (names.length === 0) throw new Error(`no path in the dialog:\n${screen}`);
  const hit = allFiles(store).find((f) => names.includes(basename(f)));
  if (!hit) throw new Error(`none of ${names.join(", ")} is in the store`);
  return hit;
}

/**
 * The file of the selected session, read from the delete confirmation's path line and
 * then cancelled (nothing else on screen names the file).
 */
async function selectedFile(app: RunningApp, store: string): Promise<string> {
  await app.press("d");
  const file = fileInDialog(await app.waitFor("Delete session"), store);
  await app.press(KEY.escape);
  await app.waitFor("not deleted");
  return file;
}

describe("session lifecycle in a real terminal", () => {
  it("Ctrl+D → Enter (pi's question) → gone and in the trash with a .trashinfo; u → back, byte-identical", async () => {
    const { store, trash, app } = setup();
    await ready(app);
    await select(app, "resume naïve");
    // A held Ctrl+D asks once: the repeats wait with every other key.
    await app.press(KEY.ctrl("d"));
    const dialog = await app.waitFor('Delete session "resume naïve"?');
    await app.press(KEY.ctrl("d"));
    await app.press(KEY.ctrl("d"));
    await app.press("j");
    expect(dialog).toContain(`Move to trash (${trash})`);
    expect(dialog).toContain("▸ Enter or y delete  ·  Esc or n cancel");
    const file = fileInDialog(dialog, store);
    const bytes = readFileSync(file);
    await new Promise((r) => setTimeout(r, 200));
    expect(app.screen()).toContain('Delete session "resume naïve"?');
    expect(existsSync(file)).toBe(true);
    await app.press(KEY.enter);
    await app.waitFor((s) => s.includes("Moved 1 session to the trash — u to undo") && !s.includes("resume naïve"));
    expect(existsSync(file)).toBe(false);
    const trashed = join(trash, "files", basename(file));
    expect(readFileSync(trashed).equals(bytes)).toBe(true);
    const info = readFileSync(join(trash, "info", `${basename(file)}.trashinfo`), "utf8");
    expect(info).toMatch(/^\[Trash Info\]\nPath=.+\nDeletionDate=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\n$/);
    expect(decodeURIComponent(/Path=(.+)/.exec(info)![1])).toBe(file);

    await app.press("u");
    await app.waitFor((s) => s.includes("Restored 1 session") && s.includes("resume naïve"));
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(existsSync(trashed)).toBe(false);
    // d asks the same; y answers it too, n and Esc cancel.
    await app.press("d");
    await app.waitFor("▸ Enter or y delete  ·  Esc or n cancel");
    await app.press("n");
    await app.waitFor("not deleted");
    expect(existsSync(file)).toBe(true);
    await app.press("d");
    await app.waitFor("Esc or n cancel");
    await app.press(KEY.escape);
    await app.waitFor((s) => s.includes("not deleted") && !s.includes("Esc or n cancel"));
    expect(existsSync(file)).toBe(true);
    // Ctrl+Backspace (pi's app.session.deleteNoninvasive) asks it too with the query empty.
    await app.press("\x1b[127;5u");
    await app.waitFor('Delete session "resume naïve"?');
    await app.press("y");
    await app.waitFor((s) => s.includes("29/29"));
    expect(existsSync(file)).toBe(false);
  });

  it("bulk: mark three, one confirmation deletes them, u restores the batch", async () => {
    const { store, trash, app } = setup();
    await ready(app);
    const before = new Map(allFiles(store).map((f) => [f, readFileSync(f)]));
    for (const n of [1, 2, 3]) {
      await app.press(KEY.space);
      await app.waitFor(`${n} marked`);
    }
    await app.press("d");
    await app.waitFor(/Delete 3 sessions \([\d.]+ KB\)\?/);
    await app.press("y");
    await app.waitFor((s) => s.includes("Moved 3 sessions to the trash — u to undo") && !s.includes("marked"));
    expect(allFiles(store)).toHaveLength(before.size - 3);
    expect(readdirSync(join(trash, "files"))).toHaveLength(3);
    expect(readdirSync(join(trash, "info"))).toHaveLength(3);
    await app.press("u");
    await app.waitFor("Restored 3 sessions");
    const after = allFiles(store);
    expect(after).toHaveLength(before.size);
    for (const f of after) expect(readFileSync(f).equals(before.get(f)!)).toBe(true);
    expect(readdirSync(join(trash, "files"))).toHaveLength(0);
  });

  it("rename through the dialog (typed and pasted); pi reads the name back", async () => {
    const { store, app } = setup();
    await ready(app);
    await select(app, "resume naïve");
    const file = await selectedFile(app, store);
    await app.press(KEY.ctrl("r"));
    await app.waitFor("Name: resume naïve");
    await app.press(KEY.ctrl("u"));
    await app.press("renamed by"); // one write: a paste
    await app.type(" e2e");
    await app.waitFor("Name: renamed by e2e");
    await app.press(KEY.enter);
    await app.waitFor((s) => s.includes('Renamed to "renamed by e2e"') && selectedLine(s).includes("renamed by e2e"));
    expect(SessionManager.open(file).getSessionName()).toBe("renamed by e2e");
  });

  it("the open list follows the store: an append by another process, and a new session file", async () => {
    const { store, app } = setup();
    await ready(app);
    await select(app, "resume naïve");
    const file = await selectedFile(app, store);
    await app.waitFor((s) => selectedLine(s).includes("resume naïve"));
    expect(selectedLine(app.screen())).toMatch(/resume naïve\s+\S+\s+10\s/);

    // As pi writes: one line, parent = the file's last entry.
    const lines = readFileSync(file, "utf8").trim().split("\n");
    const last = JSON.parse(lines[lines.length - 1]) as { id: string };
    const now = new Date();
    const entry = {
      type: "message",
      id: "e2e0a1b2",
      parentId: last.id,
      timestamp: now.toISOString(),
      message: {
        role: "user",
        content: [{ type: "text", text: "appended by another process" }],
        timestamp: now.getTime(),
      },
    };
    appendFileSync(file, JSON.stringify(entry) + "\n");
    // The row updates (11 messages, now the most recent) and stays selected; the preview shows the new entry.
    await app.waitFor(
      (s) => /resume naïve\s+\S+\s+11\s/.test(selectedLine(s)) && s.includes("appended by another process"),
      5000,
    );

    const dir = join(store, "--tmp-e2e--");
    mkdirSync(dir);
    const id = "01a1fcb4-ffff-7000-8000-00000000e2e0";
    const header = { type: "session", version: 3, id, timestamp: now.toISOString(), cwd: "/tmp/e2e" };
    const first = {
      type: "message",
      id: "e2e0c3d4",
      parentId: null,
      timestamp: now.toISOString(),
      message: {
        role: "user",
        content: [{ type: "text", text: "brand new session from e2e" }],
        timestamp: now.getTime(),
      },
    };
    writeFileSync(
      join(dir, `${now.toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`),
      JSON.stringify(header) + "\n" + JSON.stringify(first) + "\n",
    );
    await app.waitFor((s) => s.includes("brand new session") && selectedLine(s).includes("resume naïve"), 5000);
  });
});
