import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { purgeFile, RestoreRefused, restoreFile, trashedFromStore, trashSessions } from "./index.js";

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Two stores under one home: the trash log is the user's, shared by both. */
function setup() {
  const root = mkdtempSync(join(tmpdir(), "pi-sessions-store-trash-"));
  roots.push(root);
  const env = { ...process.env, XDG_DATA_HOME: join(root, "data"), XDG_STATE_HOME: join(root, "state") };
  const stores = [join(root, "a", "sessions"), join(root, "a", "sessions-other")];
  const files = stores.flatMap((s, i) => {
    mkdirSync(join(s, "--p--"), { recursive: true });
    return [1, 2].map((n) => {
      const f = join(s, "--p--", `s${i}${n}.jsonl`);
      writeFileSync(f, `{"type":"session","id":"s${i}${n}"}\n`);
      return f;
    });
  });
  return { env, stores, files };
}

const trash = (env: NodeJS.ProcessEnv, path: string) => {
  const r = trashSessions([{ path, title: path.slice(-10) }], env);
  expect(r.failed).toBeUndefined();
  return r.records[0];
};

describe("the trash of one store", () => {
  it("lists only that store's sessions still in the trash, newest first (a store whose name starts the same is another)", () => {
    const { env, stores, files } = setup();
    const [a1, a2, b1] = [trash(env, files[0]), trash(env, files[1]), trash(env, files[2])];
    expect(trashedFromStore(stores[0], env).map((r) => r.original)).toEqual([a2.original, a1.original]);
    expect(trashedFromStore(stores[1], env).map((r) => r.original)).toEqual([b1.original]);
    restoreFile(a2);
    expect(trashedFromStore(stores[0], env).map((r) => r.original)).toEqual([a1.original]);
  });

  it("a file trashed, restored and trashed again is listed once", () => {
    const { env, stores, files } = setup();
    restoreFile(trash(env, files[0]));
    const again = trash(env, files[0]);
    expect(trashedFromStore(stores[0], env)).toEqual([again]);
  });

  it("purge deletes the trashed file and its info file, and nothing else", () => {
    const { env, stores, files } = setup();
    const [a1, a2] = [trash(env, files[0]), trash(env, files[1])];
    purgeFile(a1);
    expect(existsSync(a1.trashedFile) || existsSync(a1.infoFile)).toBe(false);
    expect(existsSync(a2.trashedFile) && existsSync(a2.infoFile)).toBe(true);
    expect(trashedFromStore(stores[0], env)).toEqual([a2]);
  });

  it("purge refuses a file put in the trash slot in place of ours", () => {
    const { env, files } = setup();
    const a1 = trash(env, files[0]);
    rmSync(a1.trashedFile);
    writeFileSync(a1.trashedFile, "someone else's file, much longer than ours\n");
    expect(() => purgeFile(a1)).toThrow(RestoreRefused);
    expect(existsSync(a1.trashedFile)).toBe(true);
  });

  it("keeps each session's folder in the log: as given, else from the file's header (the view reads no trashed file)", () => {
    const { env, stores, files } = setup();
    writeFileSync(files[1], '{"type":"session","id":"s02","cwd":"/srv/web app"}\n');
    trashSessions([{ path: files[0], cwd: "/given" }], env);
    trashSessions([{ path: files[1] }], env);
    expect(trashedFromStore(stores[0], env).map((r) => r.cwd)).toEqual(["/srv/web app", "/given"]);
  });
});
