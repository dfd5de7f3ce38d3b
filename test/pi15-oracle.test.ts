// pi itself, 1.6.0 (the reference) and 1.5.2, run in a child process (test/oracle), answers for
// what expected.json does not record: its /tree filters row by row, its store location from
// settings and file:// URLs, its lists and lookups.
import { cpSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSessionIndex } from "../src/store/session-index.js";
import { buildTreeView, TREE_FILTERS } from "../src/model/tree-view.js";
import { runCliJson } from "./helpers/cli.js";
import { cleanupTmp, FIXTURES, makeTmpDir } from "./helpers/tmp-store.js";
import { askPi, DEFAULT_PI, oracleSkipReason, PI_REFERENCE, type Question } from "./oracle/pi15.js";

const SRC = join(FIXTURES, "pi-1.5.2");

let root: string;
beforeAll(() => {
  root = makeTmpDir("pi15-oracle-");
  cpSync(SRC, root, { recursive: true });
});
afterAll(cleanupTmp);

const files = () =>
  readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => join(root, f));
const PI_FILTER: Record<string, string> = { "labelled-only": "labeled-only" };

for (const version of [PI_REFERENCE, DEFAULT_PI]) {
  const skip = oracleSkipReason(version);
  const ask = <T>(q: Question[], o: { home?: string } = {}) => askPi<T>(q, { ...o, version });

  describe.skipIf(skip)(`the /tree filters, row for row as pi ${version}'s own TreeList`, () => {
    it("every session of its store, every filter (usage never shown, context edits only in all, tool-only turns hidden even in all)", async () => {
      const list = files();
      const answers = await ask<Record<string, string[]>>(list.map((file) => ({ op: "treeRows", file })));
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

  describe.skipIf(skip)(`where the store is, as pi ${version} finds it`, () => {
    const project = () => join(root, "cwds", "proj-a");
    const agent = () => join(root, "agent");
    const custom = () => join(root, "custom-dir");

    async function ourList(env: Record<string, string>, args: string[] = []) {
      return (await runCliJson<{ path: string }[]>(["list", "--all", "--json", ...args], { env, cwd: project() })).json
        .map((r) => r.path)
        .sort();
    }
    async function piList(sessionDir: string) {
      return (await ask<{ path: string }[]>([{ op: "listAll", sessionDir }]))[0].map((r) => r.path).sort();
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
        writeFileSync(
          join(project(), ".pi", "settings.json"),
          JSON.stringify(p === undefined ? {} : { sessionDir: p }),
        );
        const [piDir] = await ask<string | null>([{ op: "settingsSessionDir", cwd: project(), agentDir: agent() }], {
          home,
        });
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

  describe.skipIf(skip)(`lists and lookups, live against pi ${version} on the same files`, () => {
    const expected = JSON.parse(readFileSync(join(SRC, "expected.json"), "utf8"));
    const cwds = Object.keys(expected.listByCwd as object);

    async function compare(label: string) {
      const agent = join(root, "agent");
      const custom = join(root, "custom-dir");
      const qs = [
        { op: "listAll" as const, agentDir: agent },
        { op: "listAll" as const, sessionDir: custom },
        ...cwds.flatMap((cwd) => [
          { op: "list" as const, cwd, agentDir: agent },
          { op: "list" as const, cwd, sessionDir: custom },
        ]),
      ];
      const pi = await ask<{ path: string }[]>(qs);
      const env = { PI_CODING_AGENT_DIR: agent, HOME: root };
      const ours = async (args: string[]) =>
        (await runCliJson<{ path: string }[]>(["list", "--json", ...args], { env })).json.map((r) => r.path);
      expect(await ours(["--all"]), `${label}: listAll`).toEqual(pi[0].map((r) => r.path));
      expect(await ours(["--all", "--session-dir", custom]), `${label}: listAll(custom)`).toEqual(
        pi[1].map((r) => r.path),
      );
      for (let i = 0; i < cwds.length; i++) {
        expect(await ours(["--cwd", cwds[i]]), `${label}: list(${cwds[i]})`).toEqual(pi[2 + 2 * i].map((r) => r.path));
        expect(await ours(["--cwd", cwds[i], "--session-dir", custom]), `${label}: list(${cwds[i]}, custom)`).toEqual(
          pi[3 + 2 * i].map((r) => r.path),
        );
      }
    }

    it("the same set and order whichever file is newer on disk (ties of modified go by file mtime in listAll)", async () => {
      const list = files();
      const t0 = Date.parse("2026-11-23T08:00:00Z") / 1000;
      list.forEach((f, i) => utimesSync(f, t0 + i, t0 + i));
      await compare("oldest name first");
      list.forEach((f, i) => utimesSync(f, t0 - i, t0 - i));
      await compare("newest name first");
      list.forEach((f) => utimesSync(f, t0, t0));
      await compare("all equal");
    });

    it("findById finds what pi finds, for every id in its folder", async () => {
      const agent = join(root, "agent");
      const all = await ask<{ path: string; id: string; cwd: string }[]>([{ op: "listAll", agentDir: agent }]);
      const rows = all[0].filter((r) => r.path.startsWith(join(agent, "sessions")));
      const folderCwd = (p: string) => cwds.find((c) => p.includes(`--${c.slice(1).replace(/\//g, "-")}--`))!;
      const found = await ask<string | null>(
        rows.map((r) => ({ op: "findById" as const, cwd: folderCwd(r.path), id: r.id, agentDir: agent })),
      );
      const unique = rows.filter((r) => rows.filter((x) => x.id === r.id).length === 1);
      expect(unique.length).toBeGreaterThan(5);
      for (const r of unique) {
        expect(found[rows.indexOf(r)]).toBe(r.path);
        const { json } = await runCliJson<{ path: string }>(["show", r.id, "--json"], {
          env: { PI_CODING_AGENT_DIR: agent, HOME: root },
          cwd: root,
        });
        expect(json.path).toBe(r.path);
      }
    });
  });
}
