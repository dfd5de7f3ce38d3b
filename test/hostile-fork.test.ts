// Forking a session whose file changes under it: the fork reads lines back by the offsets
// its index recorded, so a source replaced or rewritten meanwhile must refuse the fork,
// never copy another file's bytes. And a fork keeps the source's file mode.
import { chmodSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanupTmp, makeTmpDir } from "./helpers/tmp-store.js";

// Runs `afterIndex` once the fork has read its index and before it reads lines back: the
// moment another program replacing the file would hurt.
const hooks = vi.hoisted(() => ({ afterIndex: undefined as undefined | ((path: string) => void) }));
vi.mock("../src/store/session-index.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/store/session-index.js")>();
  return {
    ...real,
    loadSessionIndex: async (path: string, options?: { skim?: boolean }) => {
      const index = await real.loadSessionIndex(path, options);
      hooks.afterIndex?.(path);
      return index;
    },
  };
});
const { forkAtEntry } = await import("../src/actions/fork.js");

afterEach(() => {
  hooks.afterIndex = undefined;
  cleanupTmp();
});

const j = (o: unknown) => JSON.stringify(o);
const header = (id: string) =>
  j({ type: "session", version: 3, id, timestamp: "2026-05-02T09:14:03.221Z", cwd: "/tmp/proj" });
const user = (id: string, parentId: string | null, text: string) =>
  j({
    type: "message",
    id,
    parentId,
    timestamp: "2026-05-02T09:15:00.000Z",
    message: { role: "user", content: text, timestamp: 1 },
  });
const reply = (id: string, parentId: string, text: string) =>
  j({
    type: "message",
    id,
    parentId,
    timestamp: "2026-05-02T09:15:01.000Z",
    message: { role: "assistant", content: [{ type: "text", text }], stopReason: "stop", model: "m", provider: "p" },
  });

function source() {
  const dir = makeTmpDir();
  const path = join(dir, "2026-05-02T09-14-03-221Z_eeee5555.jsonl");
  writeFileSync(
    path,
    [
      header("eeee5555-0000-7000-8000-000000000005"),
      user("u1", null, "question one"),
      reply("a1", "u1", "answer one"),
      user("u2", "a1", "question two"),
      reply("a2", "u2", "answer two"),
    ].join("\n") + "\n",
  );
  return { dir, path };
}

// Another session of the same shape and length: its lines sit at nearly the same offsets.
const other =
  [
    header("ffff6666-0000-7000-8000-000000000006"),
    user("x1", null, "secret one!!"),
    reply("y1", "x1", "secret two"),
    user("x2", "y1", "secret three"),
    reply("y2", "x2", "secret four"),
  ].join("\n") + "\n";

const jsonlFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".jsonl"));

describe("fork while the source changes", () => {
  it("a source replaced under the same name (rename over it) is refused; no fork file is made", async () => {
    const { dir, path } = source();
    hooks.afterIndex = (p) => {
      writeFileSync(join(dir, "incoming.tmp"), other);
      renameSync(join(dir, "incoming.tmp"), p);
    };
    await expect(forkAtEntry(path, "a2")).rejects.toThrow(/changed while the fork read it/);
    expect(jsonlFiles(dir)).toEqual(["2026-05-02T09-14-03-221Z_eeee5555.jsonl"]);
  });

  it("a source rewritten in place (same inode, same size or longer) is refused", async () => {
    const { dir, path } = source();
    const ino = statSync(path).ino;
    hooks.afterIndex = (p) => writeFileSync(p, other + other);
    await expect(forkAtEntry(path, "a2")).rejects.toThrow(/changed while the fork read it/);
    expect(statSync(path).ino).toBe(ino);
    expect(jsonlFiles(dir)).toHaveLength(1);
  });

  it("lines appended meanwhile (as pi does) are fine: the fork is made", async () => {
    const { dir, path } = source();
    hooks.afterIndex = (p) => writeFileSync(p, user("u3", "a2", "later") + "\n", { flag: "a" });
    const fork = await forkAtEntry(path, "a2");
    expect(fork.entries).toBe(4);
    expect(jsonlFiles(dir)).toHaveLength(2);
  });
});

describe("fork file mode", () => {
  it.each([0o640, 0o644, 0o600].map((m) => [m.toString(8), m] as const))(
    "takes the source's mode (%s), not always 0600",
    async (_, mode) => {
      const { path } = source();
      chmodSync(path, mode);
      const fork = await forkAtEntry(path, "a2");
      expect(statSync(fork.path).mode & 0o777).toBe(mode);
    },
  );
});
