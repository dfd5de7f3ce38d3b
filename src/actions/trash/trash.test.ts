import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decodeTrashPath, encodeTrashPath, restoreFile, RestoreRefused, trashFile } from "./freedesktop.js";
import { readTrashLog, trashSessions } from "./index.js";

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function setup() {
  const root = mkdtempSync(join(tmpdir(), "pi-sessions-trash-"));
  roots.push(root);
  const store = join(root, "sessions", "--srv-web app [x]--");
  mkdirSync(store, { recursive: true });
  const env = { ...process.env, XDG_DATA_HOME: join(root, "data"), XDG_STATE_HOME: join(root, "state") };
  const file = join(store, "2026-05-02T09-14-03-221Z_abc.jsonl");
  const bytes = Buffer.from(
    '{"type":"session","id":"abc"}\n{"type":"message","id":"e1","parentId":null,"timestamp":"t","message":{"role":"user","content":"héllo"}}\n',
  );
  writeFileSync(file, bytes);
  return { root, store, env, file, bytes };
}

describe("freedesktop trash", () => {
  it("moves the file into Trash/files with a valid .trashinfo, and restores it byte-identical", () => {
    const { env, file, bytes } = setup();
    const t = trashFile(file, env, new Date(2026, 10, 21, 9, 5, 7));
    expect(existsSync(file)).toBe(false);
    expect(t.trashedFile).toBe(join(env.XDG_DATA_HOME!, "Trash", "files", "2026-05-02T09-14-03-221Z_abc.jsonl"));
    expect(readFileSync(t.infoFile, "utf8")).toBe(
      `[Trash Info]\nPath=${encodeTrashPath(file)}\nDeletionDate=2026-11-21T09:05:07\n`,
    );
    expect(encodeTrashPath(file)).toContain("web%20app%20%5Bx%5D");
    expect(decodeTrashPath(encodeTrashPath(file))).toBe(file);
    restoreFile(t);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(existsSync(t.infoFile)).toBe(false);
    expect(existsSync(t.trashedFile)).toBe(false);
  });

  it("gives a second file of the same name its own slot", () => {
    const { env, file, bytes } = setup();
    const a = trashFile(file, env);
    writeFileSync(file, bytes);
    const b = trashFile(file, env);
    expect(b.trashedFile).not.toBe(a.trashedFile);
    expect(b.trashedFile.endsWith(".2.jsonl")).toBe(true);
    expect(existsSync(a.trashedFile) && existsSync(b.trashedFile)).toBe(true);
  });

  it("refuses to restore over a file that exists again, keeping both", () => {
    const { env, file } = setup();
    const t = trashFile(file, env);
    writeFileSync(file, "new\n");
    expect(() => restoreFile(t)).toThrow(RestoreRefused);
    expect(readFileSync(file, "utf8")).toBe("new\n");
    expect(existsSync(t.trashedFile)).toBe(true);
  });

  it("logs a batch that can be found again, and refuses a file changed since confirmation", () => {
    const { env, file, store } = setup();
    const other = join(store, "other.jsonl");
    writeFileSync(other, '{"type":"session","id":"o"}\n');
    const { records, failed } = trashSessions(
      [
        { path: file, sessionId: "abc" },
        { path: other, sessionId: "o" },
      ],
      env,
    );
    expect(failed).toBeUndefined();
    expect(new Set(records.map((r) => r.batch)).size).toBe(1);
    expect(readTrashLog(env).map((r) => r.sessionId)).toEqual(["abc", "o"]);
    writeFileSync(file, "x\n");
    const stale = trashSessions([{ path: file, bytes: 999 }], env);
    expect(stale.records).toEqual([]);
    expect(stale.failed?.error.message).toMatch(/changed since you confirmed/);
    expect(existsSync(file)).toBe(true);
  });

  it.skipIf(!existsSync("/usr/bin/gio"))("is visible to gio trash --list", (ctx) => {
    const { env, file } = setup();
    trashFile(file, env);
    let out = "";
    try {
      out = execFileSync("gio", ["trash", "--list"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    } catch {
      ctx.skip(); // gio is there but has no gvfs trash backend here
    }
    expect(out).toContain("2026-05-02T09-14-03-221Z_abc.jsonl");
  });
});

describe("a trash log that cannot be written: all or nothing", () => {
  it("a log that cannot be opened (a file where its folder should be): nothing is moved, the message says why", () => {
    const { env, file, root } = setup();
    writeFileSync(join(root, "state"), "not a folder");
    const { records, failed } = trashSessions([{ path: file }], env);
    expect(records).toEqual([]);
    expect(existsSync(file)).toBe(true);
    expect(failed?.error.name).toBe("TrashLogUnavailable");
    expect(failed?.error.message).toMatch(
      /cannot write the trash log .*trash-log\.jsonl \(a file is where its folder should be, ENOTDIR\), which undo and restore need/,
    );
  });

  it.runIf(existsSync("/dev/full"))(
    "a log write that fails (disk full): the moved file is put back, earlier batches still restore",
    () => {
      const { env, file, store, bytes } = setup();
      const earlier = join(store, "earlier.jsonl");
      writeFileSync(earlier, bytes);
      expect(trashSessions([{ path: earlier }], env).failed).toBeUndefined();
      const log = join(env.XDG_STATE_HOME!, "pi-sessions", "trash-log.jsonl");
      const kept = readFileSync(log);
      rmSync(log);
      symlinkSync("/dev/full", log);
      const { records, failed } = trashSessions([{ path: file }], env);
      expect(records).toEqual([]);
      expect(failed?.error.message).toMatch(/the disk is full, ENOSPC.*was put back, not deleted/);
      expect(readFileSync(file).equals(bytes)).toBe(true);
      expect(readdirSync(join(env.XDG_DATA_HOME!, "Trash", "files"))).toEqual(["earlier.jsonl"]);
      expect(readdirSync(join(env.XDG_DATA_HOME!, "Trash", "info"))).toEqual(["earlier.jsonl.trashinfo"]);
      // The log back as it was: the earlier batch is still the last one, and restores.
      rmSync(log);
      writeFileSync(log, kept);
      const last = readTrashLog(env);
      expect(last.map((r) => r.original)).toEqual([earlier]);
      restoreFile(last[0]);
      expect(existsSync(earlier)).toBe(true);
    },
  );
});
