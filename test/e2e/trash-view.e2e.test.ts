import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp } from "../helpers/tmp-store.js";
import { pressCommand } from "./driver.js";
import { KEY, type RunningApp } from "./pty.js";
import { trashStore } from "./trash-store.js";

/*
 * The trash view (issue 20): what was deleted in one run is seen, restored and deleted for
 * good in the next, in a real terminal, with the files on disk checked after each step.
 */

const apps: RunningApp[] = [];
afterEach(() => {
  apps.splice(0).forEach((a) => a.kill());
  cleanupTmp();
});

const jsonl = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => join(dir, f));

/** Deletes the selected session to the trash; gives its file and its title as the dialog names them. */
async function deleteSelected(app: RunningApp, store: string): Promise<{ file: string; title: string }> {
  await pressCommand(app, "session.delete");
  const dialog = await app.waitFor(/Delete session ".+"\?/);
  const title = /Delete session "(.+)"\?/.exec(dialog)![1];
  const names = [...dialog.matchAll(/([\w.-]+\.jsonl)/g)].map((m) => m[1]);
  const file = jsonl(store).find((f) => names.includes(basename(f)))!;
  await pressCommand(app, "confirm.yes");
  await app.waitFor("Moved 1 session to the trash");
  return { file, title };
}

describe("the trash view in a real terminal", () => {
  it("outlasts the run: X lists what an earlier run deleted, u puts it back, D y Y deletes it for good", async () => {
    const { store, trash, start } = trashStore(apps);
    let app = start();
    await app.waitFor((s) => !s.includes("scanning") && s.includes("30/30"));
    const { file: a, title: titleA } = await deleteSelected(app, store);
    const bytesA = readFileSync(join(trash, "files", basename(a)));
    await pressCommand(app, "list.top");
    const { file: b, title: titleB } = await deleteSelected(app, store);
    await pressCommand(app, "app.quit");
    await app.exited;

    app = start();
    await app.waitFor((s) => !s.includes("scanning") && s.includes("28/28"));
    // u is this run's undo: nothing was deleted in this run.
    await pressCommand(app, "session.undo");
    await app.waitFor("X shows the trash");
    await pressCommand(app, "trash.open");
    let screen = await app.waitFor("2 sessions");
    expect(screen).toContain("Trash · deleted from this store, newest first");
    // Newest first, the cursor on it.
    const rows = screen.split("\n").filter((l) => l.includes("just now"));
    expect(rows[0]).toContain(`❯ ${titleB}`);
    expect(rows[1]).toContain(titleA);

    // Enter is not restore: the row stays, nothing moves out of the trash.
    await app.press(KEY.enter);
    await new Promise((r) => setTimeout(r, 300));
    expect(app.screen()).toContain("2 sessions");
    expect(existsSync(join(trash, "files", basename(a)))).toBe(true);
    expect(existsSync(a)).toBe(false);
    // Ctrl+D (pi's delete in the list) neither deletes nor pages here; Ctrl+F pages.
    await app.press(KEY.ctrl("d"));
    await new Promise((r) => setTimeout(r, 300));
    expect(app.screen()).toContain("2 sessions");
    expect(existsSync(join(trash, "files", basename(a)))).toBe(true);
    await app.press(KEY.ctrl("f"));
    await app.waitFor((s) => (s.split("\n").find((l) => l.includes("❯")) ?? "").includes(titleA));
    await pressCommand(app, "trash.restore");
    screen = await app.waitFor((s) => s.includes("Restored 1 session") && s.includes("1 session"));
    expect(readFileSync(a).equals(bytesA)).toBe(true);
    expect(existsSync(join(trash, "files", basename(a)))).toBe(false);

    // Delete for good: the first y asks again, Enter at the second question cancels.
    await pressCommand(app, "trash.purge");
    await app.waitFor(`Delete "${titleB}" for good?`);
    await pressCommand(app, "confirm.yes");
    await app.waitFor("This cannot be undone.");
    await app.press(KEY.enter);
    await app.waitFor("not deleted");
    expect(existsSync(join(trash, "files", basename(b)))).toBe(true);
    await pressCommand(app, "trash.purge");
    await app.waitFor("for good?");
    await pressCommand(app, "confirm.yes");
    await app.waitFor("This cannot be undone.");
    await pressCommand(app, "confirm.permanent");
    await app.waitFor((s) => s.includes(`Deleted "${titleB}" for good`) && s.includes("No session of this store"));
    expect(existsSync(join(trash, "files", basename(b)))).toBe(false);
    expect(existsSync(join(trash, "info", `${basename(b)}.trashinfo`))).toBe(false);
    expect(existsSync(b)).toBe(false);

    // Back in the list, the restored session is there again.
    await pressCommand(app, "trash.close");
    await app.waitFor((s) => s.includes("29/29") && s.includes(titleA.slice(0, 10)));
  });
});
