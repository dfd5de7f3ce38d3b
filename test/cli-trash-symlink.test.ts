// A session that is a relative symbolic link (issue 34): `delete ID --yes` refused it as
// "changed since you confirmed", comparing the link's own size and times with its target's.
// It is deleted and restored as the link it is, as the freedesktop.org trash spec does:
// the link goes to the trash and comes back with the same relative target; the file it
// points to is never touched.
import {
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  readdirSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, makeTmpDir } from "./helpers/tmp-store.js";

afterAll(cleanupTmp);

const ID = "11112222-3333-4444-8555-666677778888";

function linkedSession() {
  const root = makeTmpDir("pi-sessions-symlink-");
  const env = { HOME: root, XDG_DATA_HOME: join(root, "data"), XDG_STATE_HOME: join(root, "state") };
  const store = join(root, "sessions");
  const folder = join(store, "--p--");
  mkdirSync(folder, { recursive: true });
  mkdirSync(join(root, "elsewhere"));
  const target = join(root, "elsewhere", "real.jsonl");
  const text =
    [
      { type: "session", version: 3, id: ID, timestamp: "2026-01-02T09:14:03.221Z", cwd: "/p" },
      {
        type: "message",
        id: "u1",
        parentId: null,
        timestamp: "2026-01-02T09:15:00.000Z",
        message: { role: "user", content: "linked hello", timestamp: 1 },
      },
    ]
      .map((l) => JSON.stringify(l))
      .join("\n") + "\n";
  writeFileSync(target, text);
  // Not changed for months; the link is made now (its own times are today's).
  const old = new Date("2026-01-02T10:00:00Z");
  utimesSync(target, old, old);
  const link = join(folder, `2026-01-02T09-14-03-221Z_${ID}.jsonl`);
  const relativeTarget = join("..", "..", "elsewhere", "real.jsonl");
  symlinkSync(relativeTarget, link);
  return { root, env, store, target, text, link, relativeTarget };
}

describe("a session that is a relative symbolic link", () => {
  it("delete ID --yes moves the link to the trash and restore --last puts it back, the target untouched", async () => {
    const t = linkedSession();
    const s = ["--session-dir", t.store];
    const before = lstatSync(t.target);
    const deleted = await runCli(["delete", ID, "--yes", ...s], { env: t.env });
    expect(deleted.stderr).not.toMatch(/changed since you confirmed/);
    expect(deleted.code).toBe(0);
    // The link is gone from the store; the trash holds the link itself (same relative text).
    expect(() => lstatSync(t.link)).toThrow(/ENOENT/);
    const trashed = join(t.root, "data", "Trash", "files");
    const [name] = readdirSync(trashed);
    expect(lstatSync(join(trashed, name)).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(trashed, name))).toBe(t.relativeTarget);
    expect(readFileSync(t.target, "utf8")).toBe(t.text);
    expect(lstatSync(t.target).mtimeMs).toBe(before.mtimeMs);

    const restored = await runCli(["restore", "--last", ...s], { env: t.env });
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(lstatSync(t.link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(t.link)).toBe(t.relativeTarget);
    expect(readFileSync(t.link, "utf8")).toBe(t.text);
    expect(readdirSync(trashed)).toEqual([]);
    expect(lstatSync(t.target).mtimeMs).toBe(before.mtimeMs);
    // And it is a session again.
    const listed = await runCli(["list", "--all", "--json", ...s], { env: t.env });
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((x) => x.id)).toEqual([ID]);
  });

  it("delete --permanent removes the link, never the file it points to", async () => {
    const t = linkedSession();
    // --permanent asks on a terminal only; --yes answers the first question, not this one.
    const { deletePermanently } = await import("../src/actions/trash/index.js");
    const st = lstatSync(t.target);
    expect(deletePermanently([{ path: t.link, bytes: st.size, mtimeMs: st.mtimeMs }])).toEqual([t.link]);
    expect(() => lstatSync(t.link)).toThrow(/ENOENT/);
    expect(readFileSync(t.target, "utf8")).toBe(t.text);
  });
});
