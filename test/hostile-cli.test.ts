// A hostile store against the CLI: names and text that carry escape sequences, empty and
// non-session arguments, huge titles. No escape byte may reach the terminal, and the
// JSON output stays exact.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { run } from "../src/cli/main.js";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, makeTmpDir } from "./helpers/tmp-store.js";

afterEach(cleanupTmp);

/** Any C0/C1 control but the newline: what must never reach a terminal from a file. */
const ESCAPE_BYTES = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;
const OSC_TITLE = "\x1b]0;PWNED\x07";
const OSC_CLIP = "\x1b]52;c;cm0gLXJmIH4=\x07";
const CSI_CLEAR = "\x1b[2J";

const header = (id: string, cwd = "/tmp/proj") => ({
  type: "session",
  version: 3,
  id,
  timestamp: "2026-05-02T09:14:03.221Z",
  cwd,
});
const userLine = (id: string, parentId: string | null, text: string) => ({
  type: "message",
  id,
  parentId,
  timestamp: "2026-05-02T09:15:00.000Z",
  message: { role: "user", content: text, timestamp: 1 },
});
const replyLine = (id: string, parentId: string | null) => ({
  type: "message",
  id,
  parentId,
  timestamp: "2026-05-02T09:15:01.000Z",
  message: {
    role: "assistant",
    content: [{ type: "text", text: "ok" }],
    stopReason: "stop",
    model: "m",
    provider: "p",
  },
});

function writeJsonl(path: string, lines: unknown[]): string {
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return path;
}

/** A store whose folder and file names carry OSC and CSI sequences. */
function hostileStore() {
  const root = makeTmpDir();
  const store = join(root, "sessions");
  const folder = join(store, `--tmp-${OSC_TITLE}proj--`);
  mkdirSync(folder, { recursive: true });
  const file = writeJsonl(join(folder, `2026-05-02T09-14-03-221Z_${OSC_CLIP}${CSI_CLEAR}.jsonl`), [
    header("aaaa1111-0000-7000-8000-000000000001"),
    userLine("u1", null, `hello ${OSC_TITLE}`),
    replyLine("a1", "u1"),
  ]);
  const env = { XDG_DATA_HOME: join(root, "data"), XDG_STATE_HOME: join(root, "state"), HOME: root };
  return { root, store, folder, file, env };
}

describe("escape sequences in folder and file names never reach the terminal", () => {
  it("rename, delete (with its 'written recently' warning) and restore print sanitized text", async () => {
    const h = hostileStore();
    const renamed = await runCli(["rename", h.file, `new ${OSC_CLIP}name`], { env: h.env });
    expect(renamed.code).toBe(0);
    expect(renamed.stdout).toContain("named ");
    const deleted = await runCli(["delete", h.file, "--yes"], { env: h.env });
    expect(deleted.code).toBe(0);
    expect(deleted.stderr).toContain("changed in the last 10 seconds");
    expect(existsSync(h.file)).toBe(false);
    const restored = await runCli(["restore", "--last", "--session-dir", h.store], { env: h.env });
    expect(restored.code).toBe(0);
    expect(existsSync(h.file)).toBe(true);
    for (const r of [renamed, deleted, restored]) {
      expect(r.stdout + r.stderr).not.toMatch(ESCAPE_BYTES);
    }
  });

  it("list --json stays exact: the path comes out as it is on disk", async () => {
    const h = hostileStore();
    const r = await runCli(["list", "--all", "--json", "--session-dir", h.store], { env: h.env });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as { path: string }[];
    expect(rows.map((x) => x.path)).toEqual([h.file]);
    const text = await runCli(["list", "--all", "--session-dir", h.store], { env: h.env });
    expect(text.stdout).toContain("hello");
    expect(text.stdout + text.stderr).not.toMatch(ESCAPE_BYTES);
  });
});

describe("arguments that would match more than they say", () => {
  it('delete "" --yes and rename "" x are usage errors (exit 2); nothing is touched', async () => {
    const h = hostileStore();
    const before = readFileSync(h.file);
    for (const argv of [
      ["delete", "", "--yes"],
      ["rename", "", "x"],
      ["label", "", "u1", "x"],
      ["show", ""],
      ["restore", ""],
    ]) {
      const r = await runCli([...argv, "--session-dir", h.store].slice(0, argv[0] === "restore" ? 2 : undefined), {
        env: h.env,
      });
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/^pi-sessions: .*must not be empty/);
    }
    expect(readFileSync(h.file).equals(before)).toBe(true);
  });

  it("delete notes.txt --yes is refused as rename refuses it: a file that is not a pi session stays", async () => {
    const dir = makeTmpDir();
    const notes = join(dir, "notes.txt");
    writeFileSync(notes, "my notes\n");
    const env = { XDG_DATA_HOME: join(dir, "data"), XDG_STATE_HOME: join(dir, "state"), HOME: dir };
    const renamed = await runCli(["rename", notes, "x"], { env, cwd: dir });
    expect(renamed.code).toBe(1);
    const r = await runCli(["delete", notes, "--yes"], { env, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/notes\.txt is not a pi session: .*nothing deleted/);
    expect(readFileSync(notes, "utf8")).toBe("my notes\n");
    // A JSON file that is not a session header is refused too.
    const json = writeJsonl(join(dir, "other.jsonl"), [{ type: "message", id: "x" }]);
    expect((await runCli(["delete", json, "--yes"], { env, cwd: dir })).code).toBe(1);
    expect(existsSync(json)).toBe(true);
  });
});

describe("a trash log that cannot be written", () => {
  it("delete moves nothing and says why; restore --last still finds the earlier batch", async () => {
    const h = hostileStore();
    const second = writeJsonl(join(h.folder, "2026-05-02T10-00-00-000Z_second.jsonl"), [
      header("aaaa1111-0000-7000-8000-000000000009"),
      userLine("u1", null, "two"),
      replyLine("a1", "u1"),
    ]);
    expect((await runCli(["delete", second, "--yes"], { env: h.env })).code).toBe(0);
    const broken = { ...h.env, XDG_STATE_HOME: join(h.root, "a-file") };
    writeFileSync(broken.XDG_STATE_HOME, "");
    const r = await runCli(["delete", h.file, "--yes"], { env: broken });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /(^|\n)pi-sessions: cannot write the trash log .* \(a file is where its folder should be, ENOTDIR\), which undo and restore need; 0 of 1 moved to the trash\n$/,
    );
    expect(existsSync(h.file)).toBe(true);
    const restored = await runCli(["restore", "--last", "--session-dir", h.store], { env: h.env });
    expect(restored.code).toBe(0);
    expect(existsSync(second)).toBe(true);
  });
});

describe("bounded output", () => {
  it("a 50 MB first message is one bounded row of `list`: a title's worth in a pipe, cut to a terminal's row", async () => {
    const dir = makeTmpDir();
    const store = join(dir, "sessions");
    mkdirSync(store);
    writeJsonl(join(store, "2026-05-02T09-14-03-221Z_big.jsonl"), [
      header("bbbb2222-0000-7000-8000-000000000002"),
      userLine("u1", null, "z".repeat(50 * 1024 * 1024)),
      replyLine("a1", "u1"),
    ]);
    // In a pipe nothing is cut, but a title is at most 2,048 characters (sessionTitle).
    const r = await runCli(["list", "--all", "--session-dir", store], { env: { HOME: dir } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/ z{2048}$/);
    const tty = await runCli(["list", "--all", "--session-dir", store], { env: { HOME: dir }, columns: 120 });
    const rows = tty.stdout.trimEnd().split("\n");
    expect(rows).toHaveLength(2);
    for (const line of rows) expect(line.length).toBeLessThanOrEqual(120);
    expect(rows[1]).toMatch(/zzz…$/);
  });
});

describe("errors", () => {
  it("name their code once (not 'EPIPE: EPIPE: …')", async () => {
    let stderr = "";
    const code = await run(["list", "--json", "--all", "--session-dir", hostileStore().store], {
      stdout: () => {
        throw Object.assign(new Error("EPIPE: broken pipe, write"), { code: "EPIPE" });
      },
      stderr: (t) => void (stderr += t),
      cwd: process.cwd(),
      env: {},
      isTTY: false,
    });
    expect(code).toBe(1);
    expect(stderr).toBe("pi-sessions: EPIPE: broken pipe, write\n");
  });
});
