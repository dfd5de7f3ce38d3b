// Conformance: pi-sessions reads the store pi itself generated exactly as pi does.
// fixtures/pi-generated/expected.json was recorded from pi's own SessionManager.
import { readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "./helpers/cli.js";
import { PI_FIXTURE_ROOT, PI_STORE } from "./helpers/tmp-store.js";

interface Expected {
  file: string;
  id: string;
  cwd: string;
  parentSession: string | null;
  name: string | null;
  leafId: string;
  entryCount: number;
  tree: [string, string | null][];
  activePath: string[];
  labels: Record<string, string>;
  list: { messageCount: number; firstMessage: string; name: string | null; created: string; modified: string };
  bytes: number;
}

interface ListRow {
  path: string;
  id: string;
  cwd: string;
  name: string | null;
  parentSessionPath: string | null;
  created: string;
  modified: string;
  messageCount: number;
  firstMessage: string;
  bytes: number;
  entryCount: number;
  lineage: { status: string; path?: string };
  warnings: string[];
}

interface ShowJson {
  header: { id: string; cwd: string; parentSession?: string };
  name: string | null;
  leafId: string | null;
  activePath: string[];
  labels: Record<string, string>;
  entries: { id: string; parentId: string | null; type: string; label?: string }[];
  warnings: string[];
}

const expected: Expected[] = JSON.parse(readFileSync(join(PI_FIXTURE_ROOT, "expected.json"), "utf8")).sessions;
const rel = (p: string) => relative(PI_FIXTURE_ROOT, p).split("\\").join("/");

describe("conformance with pi-generated fixtures", () => {
  let rows: ListRow[];
  let byFile: Map<string, ListRow>;

  beforeAll(async () => {
    const { json, stderr } = await runCliJson<ListRow[]>(["list", "--all", "--json", "--session-dir", PI_STORE]);
    rows = json;
    byFile = new Map(rows.map((r) => [rel(r.path), r]));
    expect(stderr).toBe("");
  });

  it("the fixture set is the one expected.json describes", () => {
    expect(expected.length).toBe(30);
    expect(rows.length).toBe(expected.length);
    expect([...byFile.keys()].sort()).toEqual(expected.map((e) => e.file).sort());
  });

  describe.each(expected.map((e) => [basename(e.file), e] as const))("%s", (_name, exp) => {
    it("list --json agrees with pi's SessionInfo", () => {
      const r = byFile.get(exp.file)!;
      expect(r).toBeDefined();
      expect(r.id).toBe(exp.id);
      expect(r.cwd).toBe(exp.cwd);
      expect(r.name).toBe(exp.list.name);
      expect(r.name).toBe(exp.name);
      expect(r.messageCount).toBe(exp.list.messageCount);
      expect(r.firstMessage).toBe(exp.list.firstMessage);
      expect(r.created).toBe(exp.list.created);
      expect(r.modified).toBe(exp.list.modified);
      expect(r.bytes).toBe(exp.bytes);
      expect(r.entryCount).toBe(exp.entryCount);
      expect(r.warnings).toEqual([]);
    });

    it("parentSession is kept verbatim and lineage resolves to the right file", () => {
      const r = byFile.get(exp.file)!;
      if (exp.parentSession === null) {
        expect(r.parentSessionPath).toBeNull();
        expect(r.lineage).toEqual({ status: "none" });
      } else {
        // The header holds an absolute path from the machine pi ran on.
        expect(r.parentSessionPath).not.toBeNull();
        expect(basename(r.parentSessionPath!)).toBe(basename(exp.parentSession));
        expect(r.lineage.status).toBe("resolved");
        expect(r.lineage.path).toBe(join(PI_FIXTURE_ROOT, exp.parentSession));
      }
    });

    it("show <path> --json agrees on leaf, active path, labels, name and tree", async () => {
      const path = join(PI_FIXTURE_ROOT, exp.file);
      const { json } = await runCliJson<ShowJson>(["show", path, "--json"]);
      expect(json.header.id).toBe(exp.id);
      expect(json.header.cwd).toBe(exp.cwd);
      expect(json.name).toBe(exp.name);
      expect(json.leafId).toBe(exp.leafId);
      expect(json.activePath).toEqual(exp.activePath);
      expect(json.labels).toEqual(exp.labels);
      expect(json.entries.map((e) => [e.id, e.parentId])).toEqual(exp.tree);
      for (const [id, label] of Object.entries(exp.labels)) {
        expect(json.entries.find((e) => e.id === id)?.label).toBe(label);
      }
      if (exp.parentSession) expect(basename(json.header.parentSession!)).toBe(basename(exp.parentSession));
      expect(json.warnings).toEqual([]);
    });
  });

  it("the fixtures exercise names, labels, forks and branches (so the checks above mean something)", () => {
    expect(expected.filter((e) => e.name).length).toBeGreaterThan(2);
    expect(expected.filter((e) => Object.keys(e.labels).length).length).toBeGreaterThan(2);
    expect(expected.filter((e) => e.parentSession).length).toBeGreaterThan(2);
    expect(expected.filter((e) => e.activePath.length < e.tree.length).length).toBeGreaterThan(2);
  });
});

describe("list scope and sorting", () => {
  it("default scope is the sessions whose header cwd is the current directory", async () => {
    const cwd = "/srv/work/web app";
    const want = expected
      .filter((e) => e.cwd === cwd)
      .map((e) => e.id)
      .sort();
    expect(want.length).toBeGreaterThan(1);
    const viaFlag = await runCliJson<ListRow[]>(["list", "--json", "--cwd", cwd, "--session-dir", PI_STORE]);
    expect(viaFlag.json.map((r) => r.id).sort()).toEqual(want);
    // Without --cwd the process's cwd decides.
    const viaCwd = await runCliJson<ListRow[]>(["list", "--json", "--session-dir", PI_STORE], { cwd });
    expect(viaCwd.json.map((r) => r.id).sort()).toEqual(want);
    // Unicode cwd.
    const cjk = await runCliJson<ListRow[]>(["list", "--json", "--session-dir", PI_STORE], {
      cwd: "/Users/kim/code/研究",
    });
    expect(cjk.json.map((r) => r.id).sort()).toEqual(
      expected
        .filter((e) => e.cwd === "/Users/kim/code/研究")
        .map((e) => e.id)
        .sort(),
    );
  });

  it("a cwd with no sessions lists nothing, and the text form says so on stderr", async () => {
    const j = await runCliJson<ListRow[]>(["list", "--json", "--cwd", "/nowhere", "--session-dir", PI_STORE]);
    expect(j.json).toEqual([]);
    const t = await runCli(["list", "--cwd", "/nowhere", "--session-dir", PI_STORE]);
    expect(t.code).toBe(0);
    expect(t.stdout).toBe("");
    expect(t.stderr).toContain("no sessions for /nowhere");
  });

  const sorted = async (key: string) =>
    (await runCliJson<ListRow[]>(["list", "--all", "--json", "--sort", key, "--session-dir", PI_STORE])).json;
  const isOrdered = <T>(xs: T[], cmp: (a: T, b: T) => number) => xs.every((x, i) => i === 0 || cmp(xs[i - 1], x) <= 0);

  it("--sort recent (the default) is newest modified first, like pi", async () => {
    const rows = await sorted("recent");
    expect(rows.map((r) => r.id)).toEqual(
      [...expected].sort((a, b) => Date.parse(b.list.modified) - Date.parse(a.list.modified)).map((e) => e.id),
    );
    const dflt = (await runCliJson<ListRow[]>(["list", "--all", "--json", "--session-dir", PI_STORE])).json;
    expect(dflt.map((r) => r.id)).toEqual(rows.map((r) => r.id));
  });

  it("--sort created is newest created first", async () => {
    const rows = await sorted("created");
    expect(isOrdered(rows, (a, b) => Date.parse(b.created) - Date.parse(a.created))).toBe(true);
    expect(rows[0].created >= rows[rows.length - 1].created).toBe(true);
    expect(new Set(rows.map((r) => r.created)).size).toBeGreaterThan(1);
  });

  it("--sort name puts named sessions first, then by title", async () => {
    const rows = await sorted("name");
    const named = expected.filter((e) => e.name).length;
    expect(rows.slice(0, named).every((r) => r.name)).toBe(true);
    expect(rows.slice(named).every((r) => !r.name)).toBe(true);
    const title = (r: ListRow) => (r.name ?? r.firstMessage).toLowerCase();
    expect(isOrdered(rows.slice(0, named), (a, b) => (title(a) < title(b) ? -1 : title(a) > title(b) ? 1 : 0))).toBe(
      true,
    );
    expect(isOrdered(rows.slice(named), (a, b) => (title(a) < title(b) ? -1 : title(a) > title(b) ? 1 : 0))).toBe(true);
  });

  it("--sort messages is most messages first", async () => {
    const rows = await sorted("messages");
    expect(isOrdered(rows, (a, b) => b.messageCount - a.messageCount)).toBe(true);
    expect(rows[0].messageCount).toBe(Math.max(...expected.map((e) => e.list.messageCount)));
  });

  it("--sort size is largest first", async () => {
    const rows = await sorted("size");
    expect(isOrdered(rows, (a, b) => b.bytes - a.bytes)).toBe(true);
    expect(rows[0].bytes).toBe(Math.max(...expected.map((e) => e.bytes)));
  });

  it("an unknown --sort is a usage error (exit 2)", async () => {
    const r = await runCli(["list", "--sort", "bogus", "--session-dir", PI_STORE]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^pi-sessions: --sort must be one of/);
  });

  it("the text table lists every session with its unique id prefix", async () => {
    const r = await runCli(["list", "--all", "--session-dir", PI_STORE]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^AGE\s+MSGS\s+SIZE\s+ID\s+CWD\s+TITLE$/);
    expect(lines.length).toBe(expected.length + 1);
    for (const e of expected) expect(lines.some((l) => l.includes(e.id.slice(0, 8)))).toBe(true);
  });
});

describe("show: resolving <session>", () => {
  const target = expected.find((e) => e.name === "alpha fix")!;

  it("by full id", async () => {
    const { json } = await runCliJson<ShowJson>(["show", target.id, "--json", "--session-dir", PI_STORE]);
    expect(json.header.id).toBe(target.id);
    expect(json.leafId).toBe(target.leafId);
  });

  it("by unique id prefix", async () => {
    // The ids are UUIDv7 and share their leading timestamp: the unique part is the tail.
    const prefix = target.id.slice(0, 28);
    expect(expected.filter((e) => e.id.startsWith(prefix))).toHaveLength(1);
    const { json } = await runCliJson<ShowJson>(["show", prefix, "--json", "--session-dir", PI_STORE]);
    expect(json.header.id).toBe(target.id);
  });

  it("an ambiguous prefix is an error (exit 1) naming the candidates", async () => {
    const prefix = "01a1fcb4";
    expect(expected.filter((e) => e.id.startsWith(prefix)).length).toBeGreaterThan(1);
    const r = await runCli(["show", prefix, "--json", "--session-dir", PI_STORE]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^pi-sessions: '01a1fcb4' is ambiguous: 30 sessions match/);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("an id that matches nothing is an error (exit 1)", async () => {
    const r = await runCli(["show", "ffffffff", "--session-dir", PI_STORE]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no session matches 'ffffffff'");
  });

  it("the text form marks the active path and shows the name", async () => {
    const r = await runCli(["show", join(PI_FIXTURE_ROOT, target.file)]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`id:       ${target.id}`);
    expect(r.stdout).toContain("name:     alpha fix");
    const starred = r.stdout
      .split("\n")
      .filter((l) => l.startsWith("* "))
      .map((l) => l.slice(2, 10));
    expect(starred).toEqual(target.activePath);
  });
});
