// pi 1.5.2 itself, run in a child process (test/oracle), answers for what expected.json does not
// record: its /tree filters row by row, its store location from settings and file:// URLs.
import { cpSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSessionIndex } from "../src/model/session-index.js";
import { buildTreeView, TREE_FILTERS } from "../src/model/tree-view.js";
import { runCliJson } from "./helpers/cli.js";
import { cleanupTmp, FIXTURES, makeTmpDir } from "./helpers/tmp-store.js";
import { askPi, oracleSkipReason } from "./oracle/pi15.js";

const skip = oracleSkipReason();
const SRC = join(FIXTURES, "pi-1.5.2");

let root: string;
beforeAll(() => {
  root = makeTmpDir("pi15-oracle-");
  cpSync(SRC, root, { recursive: true });
});
afterAll(cleanupTmp);

const files = () => readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl")).map((f) => join(root, f));
const PI_FILTER: Record<string, string> = { "labelled-only": "labeled-only" };

describe.skipIf(skip)("the /tree filters, row for row as pi 1.5.2's own TreeList", () => {
  it("every session of its store, every filter (usage never shown, context edits only in all, tool-only turns hidden even in all)", async () => {
    const list = files();
    const answers = await askPi<Record<string, string[]>>(list.map((file) => ({ op: "treeRows", file })));
    let contextEditRows = 0;
    for (let i = 0; i < list.length; i++) {
      const index = await loadSessionIndex(list[i]);
      for (const f of TREE_FILTERS) {
        const ours = buildTreeView(index, f, new Set()).rows.map((r) => r.id);
        expect(ours, `${list[i]} ${f}`).toEqual(answers[i][PI_FILTER[f] ?? f]);
        if (f === "all") contextEditRows += ours.filter((id) => index.byId.get(id)!.type === "context_edit").length;
        expect(ours.some((id) => index.byId.get(id)!.type === "usage")).toBe(false);
      }
    }
    expect(contextEditRows).toBeGreaterThan(0);
  });
});

describe.skipIf(skip)("where the store is, as pi 1.5.2 finds it", () => {
  const project = () => join(root, "cwds", "proj-a");
  const agent = () => join(root, "agent");
  const custom = () => join(root, "custom-dir");

  async function ourList(env: Record<string, string>, args: string[] = []) {
    return (await runCliJson<{ path: string }[]>(["list", "--all", "--json", ...args], { env, cwd: project() })).json.map((r) => r.path).sort();
  }
  async function piList(sessionDir: string) {
    return (await askPi<{ path: string }[]>([{ op: "listAll", sessionDir }]))[0].map((r) => r.path).sort();
  }

  it("the sessionDir setting: global, then the project's (which wins); relative from the cwd; ~ and file:// accepted", async () => {
    mkdirSync(join(project(), ".pi"), { recursive: true });
    const home = makeTmpDir("pi15-home-");
    cpSync(custom(), join(home, "sessions-under-home"), { recursive: true });
    const cases: [global: unknown, proj: unknown][] = [
      [custom(), undefined],
      ["~/sessions-under-home", undefined],
      [pathToFileURL(custom()).href, undefined],
      [join(agent(), "sessions"), "../../custom-dir"],
    ];
    for (const [g, p] of cases) {
      writeFileSync(join(agent(), "settings.json"), JSON.stringify({ sessionDir: g }));
      writeFileSync(join(project(), ".pi", "settings.json"), JSON.stringify(p === undefined ? {} : { sessionDir: p }));
      const [piDir] = await askPi<string | null>([{ op: "settingsSessionDir", cwd: project(), agentDir: agent() }], { home });
      expect(piDir).not.toBeNull();
      // pi resolves a relative value from its working folder, as pi-sessions does.
      const want = await piList(piDir!.startsWith("/") ? piDir! : join(project(), piDir!));
      expect(want.length).toBeGreaterThan(0);
      expect(await ourList({ PI_CODING_AGENT_DIR: agent(), HOME: home })).toEqual(want);
    }
  });

  it("file:// URLs in PI_CODING_AGENT_SESSION_DIR and --session-dir", async () => {
    writeFileSync(join(agent(), "settings.json"), "{}");
    const url = pathToFileURL(custom()).href;
    const want = await piList(url);
    expect(want.length).toBe(4);
    expect(await ourList({ PI_CODING_AGENT_SESSION_DIR: url })).toEqual(want);
    expect(await ourList({}, ["--session-dir", url])).toEqual(want);
  });
});
