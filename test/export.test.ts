// `pi-sessions export`, run in-process: formats, where it writes, and what it refuses.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { assistant, entry, user, writeBranchedSession, writeSession } from "./helpers/session-file.js";
import { cleanupTmp, makeTmpDir } from "./helpers/tmp-store.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  cleanups.splice(0).forEach((c) => c());
  cleanupTmp();
});

function branched() {
  const s = writeBranchedSession();
  cleanups.push(s.cleanup);
  return s;
}

describe("pi-sessions export", () => {
  it("prints Markdown of the active branch by default and leaves the session untouched", async () => {
    const s = branched();
    const before = readFileSync(s.path);
    const r = await runCli(["export", s.path]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout.startsWith("# first question\n")).toBe(true);
    expect(r.stdout).toContain("new branch answer");
    expect(r.stdout).not.toContain("old branch");
    expect(r.stdout.match(/^### /gm)).toHaveLength(4);
    expect(readFileSync(s.path).equals(before)).toBe(true);
  });

  it("--branch ENTRY exports the branch through that entry; --all-branches marks each branch once", async () => {
    const s = branched();
    const off = await runCli(["export", s.path, "--branch", "u2"]);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain("old branch answer");
    expect(off.stdout).not.toContain("new branch");
    const all = await runCli(["export", s.path, "--all-branches"]);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain("## Branch 1 of 2\n\n*the active branch (pi continues here); ends at entry l1*");
    expect(all.stdout).toContain(
      '## Branch 2 of 2\n\n*branches off after entry a1 ("first answer"); ends at entry a2*',
    );
    // The shared start is written once.
    expect(all.stdout.match(/first question/g)).toHaveLength(2); // the title and the message
    expect(all.stdout.indexOf("new branch answer")).toBeLessThan(all.stdout.indexOf("old branch question"));
  });

  it("resolves the session by id prefix in the store, as the other commands do", async () => {
    const s = writeSession([user("u1", null, "hello by id"), assistant("a1", "u1", "hi")], {
      type: "session",
      version: 3,
      id: "7777aaaa-0000-7000-8000-000000000001",
      timestamp: "2026-05-02T09:14:03.221Z",
      cwd: "/tmp/proj",
    });
    cleanups.push(s.cleanup);
    const r = await runCli(["export", "7777aaaa", "--session-dir", s.dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("hello by id");
  });

  it("-o writes a new file, its format from the extension; it never overwrites", async () => {
    const s = branched();
    const dir = makeTmpDir();
    const html = join(dir, "s.html");
    const r = await runCli(["export", s.path, "-o", html]);
    expect(r).toMatchObject({ code: 0, stdout: "" });
    expect(r.stderr).toContain(`exported HTML to ${html}`);
    expect(readFileSync(html, "utf8").startsWith("<!doctype html>")).toBe(true);

    writeFileSync(join(dir, "keep.md"), "mine");
    const again = await runCli(["export", s.path, "-o", join(dir, "keep.md")]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists; not overwriting it/);
    expect(readFileSync(join(dir, "keep.md"), "utf8")).toBe("mine");

    const jsonl = await runCli(["export", s.path, "-o", join(dir, "s.jsonl")]);
    expect(jsonl.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "s.jsonl"), "utf8").split("\n")[0])).toMatchObject({
      type: "session",
      version: 3,
    });
    // --format wins over the extension; no temp files are left behind.
    expect((await runCli(["export", s.path, "--format", "md", "-o", join(dir, "x.html")])).code).toBe(0);
    expect(readFileSync(join(dir, "x.html"), "utf8").startsWith("# ")).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(["keep.md", "s.html", "s.jsonl", "x.html"]);
  });

  it("JSONL to stdout: a fresh header and the active branch re-parented in order", async () => {
    const s = branched();
    const r = await runCli(["export", s.path, "--format", "jsonl"]);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: "session", version: 3, cwd: "/tmp/proj" });
    expect(lines[0].id).not.toBe("0196e0a2-8c1d-7b3e-9f40-5a7c2d1e8b90");
    expect(lines.slice(1).map((e) => [e.id, e.parentId])).toEqual([
      ["m0", null],
      ["u1", "m0"],
      ["a1", "u1"],
      ["u3", "a1"],
      ["a3", "u3"],
      ["l1", "a3"],
    ]);
    // Entries are copied whole.
    const source = readFileSync(s.path, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[4]).toEqual(source.find((e) => e.id === "u3"));
  });

  it("refuses bad combinations and unknown entries with a clear message", async () => {
    const s = branched();
    const cases: [string[], number, RegExp][] = [
      [["--all-branches", "--format", "jsonl"], 2, /one branch/],
      [["--all-branches", "--branch", "u2"], 2, /do not go together/],
      [["--format", "pdf"], 2, /unknown format 'pdf'/],
      [["--branch", "nope"], 1, /no entry nope/],
    ];
    for (const [args, code, message] of cases) {
      const r = await runCli(["export", s.path, ...args]);
      expect(r.code, args.join(" ")).toBe(code);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    }
    expect((await runCli(["export"])).code).toBe(2);
    const nowhere = await runCli(["export", s.path, "-o", join(s.dir, "no", "such", "x.md")]);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toMatch(/no folder .*no[/\\]such to write/);
    expect((await runCli(["export", join(s.dir, "missing.jsonl")])).stderr).toMatch(/no session file/);
  });

  it("escape sequences in the session never reach stdout, in any format", async () => {
    const evil = "\u001b]52;c;ZXZpbA==\u0007\u001b[2J\u009b31m\u202e";
    const s = writeSession([
      user("u1", null, `hi ${evil}`),
      entry("a1", "u1", {
        message: {
          role: "assistant",
          model: evil,
          stopReason: "toolUse",
          content: [{ type: "toolCall", id: "c", name: evil, arguments: { command: evil } }],
        },
      }),
      entry("t1", "a1", {
        message: { role: "toolResult", toolCallId: "c", toolName: "bash", content: [{ type: "text", text: evil }] },
      }),
    ]);
    cleanups.push(s.cleanup);
    for (const format of ["md", "html", "jsonl"]) {
      const r = await runCli(["export", s.path, "--format", format]);
      expect(r.code).toBe(0);

      expect(r.stdout.replace(/\n/g, ""), format).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
  });

  it("is listed in the help", async () => {
    expect((await runCli(["--help"])).stdout).toContain("pi-sessions export <session>");
    expect((await runCli(["export", "--help"])).stdout).toContain("--all-branches");
  });
});
