// File and folder names that are not UTF-8 (a store copied from an old Latin-1 system):
// listed, read, renamed, trashed and restored like any other, with the exact bytes.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadSessionIndex } from "../src/store/session-index.js";
import { scanStore } from "../src/scan/scan-store.js";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, makeTmpDir } from "./helpers/tmp-store.js";

afterEach(cleanupTmp);

const latin1 = (s: string) => Buffer.from(s, "latin1");
const j = (o: unknown) => JSON.stringify(o);

function store() {
  const root = makeTmpDir();
  const sessions = join(root, "sessions");
  // A folder "--tmp-caf\xe9--" and in it "r\xe9sum\xe9.jsonl": neither name is UTF-8.
  const folder = Buffer.concat([Buffer.from(sessions + "/"), latin1("--tmp-caf\xe9--")]);
  mkdirSync(folder, { recursive: true });
  const file = Buffer.concat([folder, Buffer.from("/"), latin1("2026-05-02T09-14-03-221Z_r\xe9sum\xe9.jsonl")]);
  const content =
    [
      j({
        type: "session",
        version: 3,
        id: "abcd1234-0000-7000-8000-00000000000a",
        timestamp: "2026-05-02T09:14:03.221Z",
        cwd: "/tmp/café",
      }),
      j({
        type: "message",
        id: "u1000000",
        parentId: null,
        timestamp: "2026-05-02T09:15:00.000Z",
        message: { role: "user", content: "latin one", timestamp: 1 },
      }),
      j({
        type: "message",
        id: "a1000000",
        parentId: "u1000000",
        timestamp: "2026-05-02T09:15:01.000Z",
        message: {
          role: "assistant",
          content: [{ type: "text", text: "ok" }],
          stopReason: "stop",
          model: "m",
          provider: "p",
        },
      }),
    ].join("\n") + "\n";
  writeFileSync(file, content);
  const env = { HOME: root, XDG_DATA_HOME: join(root, "data"), XDG_STATE_HOME: join(root, "state") };
  return { sessions, file, content, env };
}

describe("names that are not UTF-8", () => {
  it("are listed and read (not skipped as unreadable)", async () => {
    const s = store();
    const { sessions, diagnostics } = await scanStore(s.sessions, {}, { probe: false });
    expect(diagnostics).toEqual([]);
    expect(sessions.map((x) => x.firstMessage)).toEqual(["latin one"]);
    const index = await loadSessionIndex(sessions[0].path);
    expect(index.nodes.map((n) => n.id)).toEqual(["u1000000", "a1000000"]);
    const list = await runCli(["list", "--all", "--session-dir", s.sessions], { env: s.env });
    expect(list.stderr).toBe("");
    expect(list.stdout).toContain("latin one");
  });

  it("are renamed, trashed and restored by id, on the exact bytes", async () => {
    const s = store();
    const renamed = await runCli(["rename", "abcd1234", "new name", "--session-dir", s.sessions], { env: s.env });
    expect(renamed.stderr).toBe("");
    expect(renamed.stdout).toContain("\ufffd"); // the undecodable bytes shown as U+FFFD
    const after = readFileSync(s.file, "utf8");
    expect(after.startsWith(s.content)).toBe(true);
    expect(JSON.parse(after.trimEnd().split("\n").pop()!)).toMatchObject({
      type: "session_info",
      name: "new name",
      parentId: "a1000000",
    });
    expect((await runCli(["delete", "abcd1234", "--yes", "--session-dir", s.sessions], { env: s.env })).code).toBe(0);
    expect(existsSync(s.file)).toBe(false);
    expect((await runCli(["restore", "--last", "--session-dir", s.sessions], { env: s.env })).code).toBe(0);
    expect(readFileSync(s.file, "utf8")).toBe(after);
  });
});
