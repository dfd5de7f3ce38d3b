import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { restoreFile, RestoreRefused, trashFile, unsafeTrash } from "./freedesktop.js";
import { readTrashLog, trashSessions } from "./index.js";

/*
 * Issue 21 items 2 and 8: a trash another user planted on a shared volume is refused, a
 * trashed file replaced in the trash is not restored, and a session that is a symlink
 * comes back as the link it was.
 */
const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const root = () => {
  const r = mkdtempSync(join(tmpdir(), "pi-sessions-trash-safety-"));
  roots.push(r);
  return r;
};
const UID = process.getuid?.() ?? 0;
const isRoot = UID === 0;

describe("a volume's trash folder must be ours (GLib's checks)", () => {
  it("absent, or a real folder of ours closed to others, is safe", () => {
    const r = root();
    expect(unsafeTrash(join(r, ".Trash-1000"), UID)).toBeUndefined();
    const own = join(r, `.Trash-${UID}`);
    mkdirSync(join(own, "files"), { recursive: true, mode: 0o700 });
    chmodSync(own, 0o700);
    expect(unsafeTrash(own, UID)).toBeUndefined();
  });
  it("a symlink, a file, a folder open to others, or one of its parts planted as a link, is refused", () => {
    const r = root();
    const elsewhere = join(r, "attacker");
    mkdirSync(elsewhere, { mode: 0o700 });
    const link = join(r, ".Trash-link");
    symlinkSync(elsewhere, link);
    expect(unsafeTrash(link, UID)).toMatch(/is a symbolic link/);
    const file = join(r, ".Trash-file");
    writeFileSync(file, "");
    expect(unsafeTrash(file, UID)).toMatch(/is not a folder/);
    const open = join(r, ".Trash-open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(unsafeTrash(open, UID)).toMatch(/open to other users/);
    const planted = join(r, ".Trash-parts");
    mkdirSync(planted, { mode: 0o700 });
    symlinkSync(elsewhere, join(planted, "files"));
    expect(unsafeTrash(planted, UID)).toMatch(/files is a symbolic link/);
  });
  it.skipIf(!isRoot)("a folder owned by another user is refused", () => {
    const r = root();
    const foreign = join(r, ".Trash-foreign");
    mkdirSync(foreign, { mode: 0o700 });
    chownSync(foreign, 4321, 4321);
    expect(unsafeTrash(foreign, UID)).toMatch(/belongs to another user/);
  });
});

function store() {
  const r = root();
  const dir = join(r, "sessions", "--p--");
  mkdirSync(dir, { recursive: true });
  const env = { ...process.env, XDG_DATA_HOME: join(r, "data"), XDG_STATE_HOME: join(r, "state") };
  const file = join(dir, "2026-05-02T09-14-03-221Z_abc.jsonl");
  writeFileSync(file, '{"type":"session","version":3,"id":"abc","timestamp":"t","cwd":"/p"}\n');
  return { r, dir, env, file };
}

describe("restore puts back only what was trashed", () => {
  it("a trashed file replaced in the trash is refused, and the store keeps nothing of it", () => {
    const s = store();
    const moved = trashFile(s.file, s.env);
    // Someone swaps the file in the trash for their own.
    const theirs = join(s.r, "theirs.jsonl");
    writeFileSync(theirs, '{"type":"session","version":3,"id":"evil","timestamp":"t","cwd":"/p"}\n');
    renameSync(theirs, moved.trashedFile);
    expect(() => restoreFile(moved)).toThrow(RestoreRefused);
    expect(() => restoreFile(moved)).toThrow(/not the file that was moved to the trash/);
    expect(() => lstatSync(s.file)).toThrow();
  });
  it("a session that is a relative symlink comes back as that link, even when it dangles in the trash", () => {
    const s = store();
    const target = join(s.dir, "..", "real.jsonl");
    writeFileSync(target, readFileSync(s.file));
    rmSync(s.file);
    symlinkSync("../real.jsonl", s.file);
    const { records, failed } = trashSessions([{ path: s.file, sessionId: "abc" }], s.env);
    expect(failed).toBeUndefined();
    expect(readTrashLog(s.env).map((r) => r.original)).toEqual([s.file]);
    restoreFile(records[0]);
    expect(lstatSync(s.file).isSymbolicLink()).toBe(true);
    expect(readlinkSync(s.file)).toBe("../real.jsonl");
    expect(readFileSync(s.file, "utf8")).toContain('"id":"abc"');
  });
});
