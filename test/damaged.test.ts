// Damaged stores: nothing throws, every valid session is listed (legacy ones included),
// everything else is reported. fixtures/damaged is made by fixtures/make-damaged.mjs.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, afterAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "./helpers/cli.js";
import { cleanupTmp, DAMAGED_STORE, makeTmpDir, REPO } from "./helpers/tmp-store.js";

const DIR = join(DAMAGED_STORE, "--tmp-damaged--");
const f = (name: string) => join(DIR, name);

interface Row {
  path: string;
  id: string;
  cwd: string;
  name: string | null;
  messageCount: number;
  firstMessage: string;
  entryCount: number;
  version: number;
  warnings: string[];
}
interface Show {
  header: { id: string };
  leafId: string | null;
  activePath: string[];
  labels: Record<string, string>;
  entries: { id: string; parentId: string | null; type: string; role?: string; text?: string }[];
  warnings: string[];
}

/** file → [messageCount, number of warnings, firstMessage] */
const VALID: Record<string, [number, number, string]> = {
  "truncated-last-line.jsonl": [2, 1, "truncated: hello"],
  "malformed-middle.jsonl": [2, 1, "malformed: hello"],
  "header-only.jsonl": [0, 0, "(no messages)"],
  "garbage-first-line.jsonl": [2, 1, "garbage first: hello"],
  "legacy-v1.jsonl": [5, 0, "legacy v1 hello"],
  "legacy-v2.jsonl": [2, 0, "legacy v2 hello"],
  "cycle.jsonl": [4, 0, "cycle: hello"],
  "self-parent.jsonl": [3, 0, "self parent: hello"],
  "orphans.jsonl": [3, 0, "orphans: hello"],
  "unknown-types.jsonl": [1, 0, "unknown types: hello"],
  "non-object-lines.jsonl": [2, 4, "non-object: hello"],
  // pi counts every message line, a repeated one too.
  "duplicate-header.jsonl": [3, 2, "duplicate: hello"],
  "crlf.jsonl": [2, 0, "crlf: hello"],
  "non-utf8.jsonl": [2, 0, "bytes:\uFFFD\uFFFDhere"],
  "escapes.jsonl": [2, 0, "\u001b[31mred\u001b[0m \u001b]0;pwned\u0007 csi\u009b2J end"],
  // Its first "user" has a hostile role, so pi's firstMessage is the second one.
  "escapes-in-ids.jsonl": [2, 1, "ids: again"],
};
const NOT_SESSIONS: Record<string, RegExp> = {
  "empty.jsonl": /empty file/,
  "headerless.jsonl": /not a session header/,
  "blank-lines.jsonl": /only blank lines/,
};

describe("list --all --json on fixtures/damaged", () => {
  let rows: Row[];
  let stderr: string;
  let byName: Map<string, Row>;
  beforeAll(async () => {
    const r = await runCli(["list", "--all", "--json", "--session-dir", DAMAGED_STORE]);
    expect(r.code).toBe(0);
    rows = JSON.parse(r.stdout);
    stderr = r.stderr;
    byName = new Map(rows.map((row) => [row.path.slice(row.path.lastIndexOf("/") + 1), row]));
  });

  it("the fixture is complete (make-damaged.mjs was run)", () => {
    const names = readdirSync(DIR).sort();
    expect(names).toEqual([...Object.keys(VALID), ...Object.keys(NOT_SESSIONS), "notes.txt"].sort());
  });

  it("lists exactly the valid sessions, the flat-layout file included", () => {
    expect([...byName.keys()].sort()).toEqual([...Object.keys(VALID), "flat-session.jsonl"].sort());
    expect(byName.get("flat-session.jsonl")).toMatchObject({
      path: join(DAMAGED_STORE, "flat-session.jsonl"),
      cwd: "/tmp/flat",
      messageCount: 2,
    });
  });

  it.each(Object.entries(VALID))("%s: messageCount, warnings, firstMessage", (name, [count, warnings, first]) => {
    const row = byName.get(name)!;
    expect(row).toBeDefined();
    expect(row.messageCount).toBe(count);
    expect(row.warnings).toHaveLength(warnings);
    expect(row.firstMessage).toBe(first);
  });

  it("says why lines were skipped", () => {
    expect(byName.get("truncated-last-line.jsonl")!.warnings).toEqual([
      "line 4: truncated last line (no newline), skipped",
    ]);
    expect(byName.get("malformed-middle.jsonl")!.warnings).toEqual(["line 3: malformed JSON, skipped"]);
    expect(byName.get("garbage-first-line.jsonl")!.warnings).toEqual(["line 1: malformed JSON, skipped"]);
    expect(byName.get("non-object-lines.jsonl")!.warnings).toEqual(
      [3, 4, 5, 6].map((n) => `line ${n}: not a JSON object, skipped`),
    );
    expect(byName.get("duplicate-header.jsonl")!.warnings).toEqual([
      "line 3: extra session header ignored",
      "line 4: duplicate id d0d00001: the later entry replaces the earlier",
    ]);
  });

  it("legacy files carry their version and are read", () => {
    expect(byName.get("legacy-v1.jsonl")).toMatchObject({ version: 1, entryCount: 7 });
    expect(byName.get("legacy-v2.jsonl")).toMatchObject({ version: 2, entryCount: 2 });
    expect(byName.get("crlf.jsonl")).toMatchObject({ version: 3, entryCount: 2 });
  });

  it("the last session_info wins for the name, even a hostile one", () => {
    expect(byName.get("escapes.jsonl")!.name).toBe("\u001b[31mevil\u001b[0m name\u009b");
  });

  it("reports empty, headerless and blank files on stderr as skipped, and ignores non-.jsonl files", () => {
    for (const [name, why] of Object.entries(NOT_SESSIONS)) {
      const line = stderr.split("\n").find((l) => l.startsWith(`pi-sessions: skipped ${f(name)}: `));
      expect(line, name).toBeDefined();
      expect(line).toMatch(why);
    }
    expect(stderr).not.toContain("notes.txt");
    expect(stderr).not.toContain("header-only.jsonl");
  });
});

describe("show --json on damaged trees", () => {
  const show = async (name: string) => (await runCliJson<Show>(["show", f(name), "--json"])).json;

  it("a parent cycle: terminates with every entry present and a finite active path ending at the leaf", async () => {
    const s = await show("cycle.jsonl");
    expect(s.entries.map((e) => e.id)).toEqual(["ffff0001", "ffff0002", "cccc000a", "cccc000b"]);
    expect(s.leafId).toBe("cccc000b");
    // The cycle is cut at its first entry in file order.
    expect(s.activePath).toEqual(["cccc000a", "cccc000b"]);
  });

  it("a self-parent: becomes a root, its child is the leaf", async () => {
    const s = await show("self-parent.jsonl");
    expect(s.entries.map((e) => e.id)).toEqual(["5e1f0001", "5e1f0002", "5e1f0003"]);
    expect(s.leafId).toBe("5e1f0003");
    expect(s.activePath).toEqual(["5e1f0002", "5e1f0003"]);
  });

  it("orphans: an entry with a missing parent is a root", async () => {
    const s = await show("orphans.jsonl");
    expect(s.entries).toHaveLength(3);
    expect(s.activePath).toEqual(["0a0a0002", "0a0a0003"]);
  });

  it("unknown entry types are kept as generic entries", async () => {
    const s = await show("unknown-types.jsonl");
    expect(s.entries.map((e) => e.type)).toEqual(["message", "usage", "context_edit", "something_new"]);
    expect(s.activePath).toEqual(["7e7e0001", "7e7e0002", "7e7e0003", "7e7e0004"]);
  });

  it("v1: ids are assigned and chained in file order", async () => {
    const s = await show("legacy-v1.jsonl");
    expect(s.entries).toHaveLength(7);
    expect(s.entries.map((e) => e.parentId)).toEqual([null, ...s.entries.slice(0, -1).map((e) => e.id)]);
    expect(new Set(s.entries.map((e) => e.id)).size).toBe(7);
    expect(s.activePath).toEqual(s.entries.map((e) => e.id));
  });

  it("v2: hookMessage is read as custom", async () => {
    const s = await show("legacy-v2.jsonl");
    expect(s.entries.map((e) => e.role)).toEqual(["user", "custom"]);
  });

  it("a repeated id keeps its first place with the later content; the extra header is ignored", async () => {
    const s = await show("duplicate-header.jsonl");
    expect(s.entries.map((e) => [e.id, e.text])).toEqual([
      ["d0d00001", "duplicate: hello again"],
      ["d0d00002", "reply"],
    ]);
    expect(s.activePath).toEqual(["d0d00001", "d0d00002"]);
  });

  it("a truncated last line: the leaf is the last complete entry", async () => {
    const s = await show("truncated-last-line.jsonl");
    expect(s.leafId).toBe("aaaa0002");
    expect(s.warnings).toEqual(["line 4: truncated last line (no newline), skipped"]);
  });

  it("CRLF and non-UTF-8 files read normally", async () => {
    expect((await show("crlf.jsonl")).entries.map((e) => e.text)).toEqual(["crlf: hello", "reply"]);
    expect((await show("non-utf8.jsonl")).entries[0].text).toBe("bytes:\uFFFD\uFFFDhere");
  });

  it("show of a file that isn't a session is an error (exit 1), one line", async () => {
    for (const name of Object.keys(NOT_SESSIONS)) {
      const r = await runCli(["show", f(name)]);
      expect(r.code, name).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^pi-sessions: .*${name} is not a pi session: .*\\n$`));
    }
  });
});

describe("terminal escapes from session files never reach the terminal raw", () => {
  // ESC, BEL and the C1 controls (U+0080–U+009F, including CSI U+009B).

  const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

  it("list (text table and stderr)", async () => {
    const r = await runCli(["list", "--all", "--session-dir", DAMAGED_STORE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("evil");
    expect(r.stdout).not.toMatch(CONTROL);
    expect(r.stderr).not.toMatch(CONTROL);
  });

  it.each(["escapes.jsonl", "escapes-in-ids.jsonl"])("show %s (text)", async (name) => {
    const r = await runCli(["show", f(name)]);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(100);
    expect(r.stdout).not.toMatch(CONTROL);
  });
});

describe("a store made by gen-store.mjs --faults 1", () => {
  afterAll(cleanupTmp);

  it("list --all --json exits 0, lists every valid session including v1 and v2, and reports the rest", async () => {
    const out = makeTmpDir();
    const gen = join(REPO, "bench", "gen-store.mjs");
    const res = JSON.parse(
      execFileSync(
        process.execPath,
        [gen, "--out", out, "--sessions", "6", "--projects", "2", "--avg-kb", "4", "--faults", "1"],
        { encoding: "utf8" },
      ),
    );
    expect(res.sessions).toBe(6);
    const store = join(out, "sessions");
    const r = await runCli(["list", "--all", "--json", "--session-dir", store]);
    expect(r.code).toBe(0);
    const rows: Row[] = JSON.parse(r.stdout);
    // 6 sessions + truncated, malformed-middle, header-only, v1, v2.
    expect(rows).toHaveLength(11);
    expect(rows.filter((x) => x.version === 1).map((x) => x.firstMessage)).toEqual(["legacy v1 hello"]);
    expect(rows.filter((x) => x.version === 2).map((x) => x.firstMessage)).toEqual(["legacy v2 hello"]);
    expect(rows.filter((x) => x.messageCount === 0)).toHaveLength(1);
    expect(rows.filter((x) => x.warnings.some((w) => /truncated last line/.test(w)))).toHaveLength(1);
    expect(rows.filter((x) => x.warnings.some((w) => /malformed JSON/.test(w)))).toHaveLength(1);
    const skipped = r.stderr.split("\n").filter((l) => l.startsWith("pi-sessions: skipped "));
    expect(skipped).toHaveLength(2);
    expect(skipped.some((l) => /: empty file$/.test(l))).toBe(true);
    expect(skipped.some((l) => /not a session header/.test(l))).toBe(true);
    expect(r.stderr).not.toContain("notes.txt");
  });
});
