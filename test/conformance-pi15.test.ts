// Conformance with pi 1.5.2 on the store it wrote itself (fixtures/pi-1.5.2): every answer of
// its expected.json, recorded from pi's own SessionManager, against pi-sessions' CLI.
// The store is copied to a temp folder; the recorded prefix (/home/kim/pi15) maps to the copy.
import { cpSync, readdirSync, readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "./helpers/cli.js";
import { cleanupTmp, FIXTURES, makeTmpDir } from "./helpers/tmp-store.js";

const SRC = join(FIXTURES, "pi-1.5.2");
const expected = JSON.parse(readFileSync(join(SRC, "expected.json"), "utf8"));
const PREFIX: string = expected.agentDir.replace(/\/agent$/, "");

interface Info {
  path: string;
  id: string;
  cwd: string;
  name: string | null;
  parentSessionPath: string | null;
  created: string;
  modified: string;
  messageCount: number;
  firstMessage: string;
}
interface TreeNode {
  id: string;
  type: string;
  label?: string;
  children: TreeNode[];
}
interface ShowJson {
  path: string;
  header: Record<string, unknown>;
  name: string | null;
  leafId: string | null;
  activePath: string[];
  labels: Record<string, string>;
  usage: { tokens: Record<string, number>; cost: number };
  context: { entryIds: string[]; roles: string[]; edits: Record<string, { kind: string; text?: string }> };
  entries: { id: string; parentId: string | null; type: string; timestamp: string }[];
  warnings: string[];
}

let root: string;
const toCopy = (p: string) => root + p.slice(PREFIX.length);
const fromCopy = (p: string) => PREFIX + p.slice(root.length);
const env = () => ({ PI_CODING_AGENT_DIR: join(root, "agent"), HOME: root });

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => join(dir, f));
}

let before: Map<string, Buffer>;
beforeAll(() => {
  root = makeTmpDir("pi15-conformance-");
  cpSync(SRC, root, { recursive: true });
  // pi breaks ties of `modified` across its default store by file mtime, newest first. git
  // keeps no mtimes, so the copy gets the ones that order the files as they were recorded.
  const order: string[] = expected.listAllOrder;
  const t0 = Date.parse("2026-11-23T08:00:00Z") / 1000;
  order.forEach((p, i) => utimesSync(toCopy(p), t0 - i, t0 - i));
  before = new Map([...filesUnder(root)].map((f) => [f, readFileSync(f)]));
});
afterAll(cleanupTmp);

function expectInfo(row: Info, exp: Info) {
  expect(fromCopy(row.path)).toBe(exp.path);
  for (const k of [
    "id",
    "cwd",
    "name",
    "parentSessionPath",
    "created",
    "modified",
    "messageCount",
    "firstMessage",
  ] as const) {
    expect(row[k], `${k} of ${exp.path}`).toEqual(exp[k]);
  }
}

describe("pi 1.5.2's own store: the lists", () => {
  it("list --all on the default store: pi's listAll set and order, every SessionInfo field", async () => {
    const { json } = await runCliJson<Info[]>(["list", "--all", "--json"], { env: env() });
    expect(json.map((r) => fromCopy(r.path))).toEqual(expected.listAllOrder);
    for (const r of json) expectInfo(r, expected.files[fromCopy(r.path)].info);
  });

  it("list --all on the custom folder: pi's listAll(dir) order", async () => {
    const { json } = await runCliJson<Info[]>(["list", "--all", "--json", "--session-dir", join(root, "custom-dir")], {
      env: env(),
    });
    expect(json.map((r) => fromCopy(r.path))).toEqual(expected.listCustomAll);
    for (const r of json) expectInfo(r, expected.files[fromCopy(r.path)].info);
  });

  it("a session whose user message has content null is not listed (pi's reader fails on it), and says why", async () => {
    const r = await runCli(["list", "--all", "--json"], { env: env() });
    const s9c = toCopy(expected.notes.S9c.file);
    expect(JSON.parse(r.stdout).map((x: Info) => x.path)).not.toContain(s9c);
    expect(expected.listAllOrder).not.toContain(expected.notes.S9c.file);
    expect(r.stderr).toContain("content null");
  });

  for (const [cwd, want] of Object.entries(
    expected.listByCwd as Record<string, { defaultDir: string[]; customDir: string[] }>,
  )) {
    it(`list --cwd ${cwd.slice(PREFIX.length)}: pi's list(cwd) on both folders`, async () => {
      const d = await runCliJson<Info[]>(["list", "--json", "--cwd", cwd], { env: env() });
      expect(d.json.map((r) => fromCopy(r.path))).toEqual(want.defaultDir);
      const c = await runCliJson<Info[]>(["list", "--json", "--cwd", cwd, "--session-dir", join(root, "custom-dir")], {
        env: env(),
      });
      expect(c.json.map((r) => fromCopy(r.path))).toEqual(want.customDir);
    });
  }

  it("lookup by id: pi's findById (a custom id, a header beyond 4 KB)", async () => {
    for (const [id, path] of Object.entries(expected.findById as Record<string, string>)) {
      const { json } = await runCliJson<ShowJson>(["show", id, "--json"], { env: env() });
      expect(fromCopy(json.path)).toBe(path);
    }
  });

  it("two files with one id (an /import done twice): one is opened, not refused", async () => {
    const { json } = await runCliJson<ShowJson>(
      ["show", expected.notes.S9e.sameIdAs.split("_").pop().replace(".jsonl", ""), "--json"],
      { env: env() },
    );
    expect([expected.notes.S9e.file, expected.notes.S9e.sameIdAs]).toContain(fromCopy(json.path));
  });
});

function nest(entries: ShowJson["entries"], labels: Record<string, string>): TreeNode[] {
  const nodes = new Map(
    entries.map((e) => [
      e.id,
      { id: e.id, type: e.type, ...(labels[e.id] ? { label: labels[e.id] } : {}), children: [] as TreeNode[] },
    ]),
  );
  const time = new Map(entries.map((e) => [e.id, Date.parse(e.timestamp)]));
  const roots: TreeNode[] = [];
  for (const e of entries) {
    const parent = e.parentId === null || e.parentId === e.id ? undefined : nodes.get(e.parentId);
    (parent ? parent.children : roots).push(nodes.get(e.id)!);
  }
  const sortKids = (list: TreeNode[]) => {
    list.sort((a, b) => time.get(a.id)! - time.get(b.id)!);
    list.forEach((n) => sortKids(n.children));
  };
  roots.forEach((n) => sortKids(n.children));
  return roots;
}

describe.each(Object.keys(expected.files).map((p) => [p.slice(PREFIX.length), p] as const))(
  "%s",
  (_short, recorded) => {
    const exp = expected.files[recorded].pi;
    let json: ShowJson;
    beforeAll(async () => {
      json = (await runCliJson<ShowJson>(["show", toCopy(recorded), "--json"], { env: env() })).json;
    });

    it("header, leaf, active branch, name, labels as pi", () => {
      expect(json.header).toEqual(exp.header);
      expect(json.entries.length).toBe(exp.entryCount);
      expect(json.leafId).toBe(exp.leafId);
      expect(json.activePath).toEqual(exp.branch);
      expect(json.name).toBe(exp.name);
      expect(json.labels).toEqual(exp.labels);
      expect(json.warnings).toEqual([]);
    });

    it("tree as pi's getTree", () => {
      const tree = nest(json.entries, json.labels);
      expect(tree.length).toBe(exp.roots);
      // expected.json leaves out an empty children list.
      const strip = (nodes: TreeNode[]): unknown[] =>
        nodes.map(({ children, ...n }) => (children?.length ? { ...n, children: strip(children) } : n));
      expect(strip(tree)).toEqual(strip(exp.tree));
    });

    it("the model's context after compaction and context edits: entries and roles", () => {
      expect(json.context.entryIds).toEqual(exp.contextEntryIds);
      expect(json.context.roles).toEqual(exp.contextRoles);
      expect(json.context.roles.length).toBe(exp.contextMessages);
    });

    it("usage totals as pi's /session: to the token and to 1e-6 dollars", () => {
      expect(json.usage.tokens).toEqual(exp.sessionStats.tokens);
      expect(Math.abs(json.usage.cost - exp.sessionStats.cost)).toBeLessThan(1e-6);
    });
  },
);

describe("what pi-sessions read it left as it was", () => {
  it("no file of the store changed (pi itself rewrites a file without a trailing newline on open)", () => {
    for (const [f, bytes] of before) expect(Buffer.compare(readFileSync(f), bytes), f).toBe(0);
  });
});

describe("list rows carry pi's /session totals", () => {
  it("S1: 50,392 tokens and $0.043 (usage entries and tool-result usage included)", async () => {
    const { json } = await runCliJson<(Info & { tokens: { total: number }; cost: number })[]>(
      ["list", "--all", "--json"],
      { env: env() },
    );
    for (const r of json) {
      const stats = expected.files[fromCopy(r.path)].pi.sessionStats;
      expect(r.tokens).toEqual(stats.tokens);
      expect(Math.abs(r.cost - stats.cost)).toBeLessThan(1e-6);
    }
    const s1 = json.find((r) => fromCopy(r.path) === expected.notes.S1.file)!;
    expect(s1.tokens.total).toBe(50392);
  });
});
