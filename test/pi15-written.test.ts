// A store pi writes in the test (1.6.0, the reference, and 1.5.2), through its own
// SessionManager API: every new kind of entry (usage entries, tool results with usage,
// context edits, a compaction with no kept part, a branch summary with usage, labels, names,
// a custom id, a session with no reply yet, sessions whose `modified` ties), then read by
// pi-sessions and compared with pi's answers.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSessionIndex } from "../src/store/session-index.js";
import { buildTreeView, TREE_FILTERS } from "../src/model/tree-view.js";
import { cwdFolderName } from "../src/store/scope.js";
import { runCliJson } from "./helpers/cli.js";
import { cleanupTmp, makeTmpDir } from "./helpers/tmp-store.js";
import {
  askPi,
  DEFAULT_PI,
  oracleSkipReason,
  PI_REFERENCE,
  type PiSession,
  type Question,
  type WriteStep,
} from "./oracle/pi15.js";

const usage = (input: number, output: number, cacheRead: number, cacheWrite: number, cost: number) => ({
  input,
  output,
  cacheRead,
  cacheWrite,
  totalTokens: input + output + cacheRead + cacheWrite,
  cost: { input: cost / 2, output: cost / 2, cacheRead: 0, cacheWrite: 0, total: cost },
});
const user = (text: string, t: number): WriteStep => ({
  do: "message",
  message: { role: "user", content: text, timestamp: t },
});
const reply = (text: string, t: number, u = usage(100, 20, 10, 5, 0.0123)): WriteStep => ({
  do: "message",
  message: {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-x",
    responseModel: "claude-x-2026",
    thinkingLevel: "low",
    usage: u,
    stopReason: "stop",
    timestamp: t,
  },
});
const T = Date.parse("2026-11-20T10:00:00Z");

const A = "/srv/pi15/a";
const B = "/srv/pi15/b";

const RICH: WriteStep[] = [
  { do: "model", provider: "anthropic", modelId: "claude-x" },
  user("list the files", T + 1), // 1
  {
    do: "message",
    message: {
      role: "assistant",
      content: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "ls" } }],
      api: "a",
      provider: "anthropic",
      model: "claude-x",
      usage: usage(50, 10, 0, 0, 0.003),
      stopReason: "toolUse",
      timestamp: T + 2,
    },
  }, // 2
  {
    do: "message",
    message: {
      role: "toolResult",
      toolCallId: "c1",
      toolName: "bash",
      content: [{ type: "text", text: "a b" }],
      isError: false,
      usage: usage(7, 3, 1, 1, 0.0011),
      nestedCalls: { calls: [{ id: "n1", name: "read", status: "ok" }], complete: true },
      timestamp: T + 3,
    },
  }, // 3
  reply("two files", T + 4), // 4
  {
    do: "usage",
    kind: "cache_warm",
    provider: "anthropic",
    model: "claude-x",
    usage: usage(0, 0, 40000, 3, 0.0077),
    note: "idle",
  }, // 5
  { do: "contextEdit", ref: "$1", replacement: null }, // 6
  { do: "contextEdit", ref: "$4", replacement: { content: "two files (edited)" } }, // 7
  user("and now?", T + 8), // 8
  reply("done", T + 9), // 9
  {
    do: "compaction",
    summary: "we listed files",
    firstKept: null,
    tokensBefore: 12345,
    usage: usage(300, 40, 0, 0, 0.02),
  }, // 10
  user("after compaction", T + 11), // 11
  reply("ok after", T + 12), // 12
  { do: "branchSummary", ref: "$9", summary: "abandoned a path", usage: usage(20, 5, 0, 0, 0.0009) }, // 13
  user("another way", T + 14), // 14
  reply("the other way", T + 15), // 15
  { do: "label", ref: "$8", label: "ask" }, // 16
  { do: "name", name: "rich one" }, // 17
];

afterAll(cleanupTmp);

for (const version of [PI_REFERENCE, DEFAULT_PI]) {
  const skip = oracleSkipReason(version);
  const ask = <T>(q: Question[]) => askPi<T>(q, { version });

  describe(`pi ${version}`, () => {
    let root: string;
    let agent: string;
    let custom: string;
    const written: Record<string, { path: string; ids: (string | null)[] }> = {};

    beforeAll(async () => {
      if (skip) return;
      root = makeTmpDir("pi15-written-");
      agent = join(root, "agent");
      custom = join(root, "custom");
      mkdirSync(custom);
      const dirA = join(agent, "sessions", cwdFolderName(A));
      const dirB = join(agent, "sessions", cwdFolderName(B));
      const jobs = {
        rich: { cwd: A, dir: dirA, steps: RICH },
        // Same last activity as `tieB`: their order is pi's tie rule.
        noReply: { cwd: A, dir: dirA, steps: [user("a prompt whose reply never came", T + 100)] },
        tieB: { cwd: B, dir: dirB, steps: [user("tie", T + 50), reply("tie answer", T + 100)] },
        customId: { cwd: B, dir: dirB, id: "job.v3", steps: [user("custom id", T + 20), reply("ok", T + 21)] },
        flatA: { cwd: A, dir: custom, steps: [user("custom folder A", T + 30), reply("ok", T + 31)] },
        flatB: { cwd: B, dir: custom, steps: [user("custom folder B", T + 30), reply("ok", T + 31)] },
      };
      const names = Object.keys(jobs) as (keyof typeof jobs)[];
      const out = await ask<{ path: string; ids: (string | null)[] }>(
        names.map((n) => ({ op: "write" as const, ...jobs[n] })),
      );
      names.forEach((n, i) => (written[n] = out[i]));
    });

    describe.skipIf(skip)(`a store pi ${version} wrote in this test`, () => {
      const env = () => ({ PI_CODING_AGENT_DIR: agent, HOME: root });

      it("lists as pi lists: every folder, one project, the custom folder", async () => {
        const [all, listA, listB, flatAll, flatA] = await ask<
          { path: string; modified: string; messageCount: number; firstMessage: string; name: string | null }[]
        >([
          { op: "listAll", agentDir: agent },
          { op: "list", cwd: A, agentDir: agent },
          { op: "list", cwd: B, agentDir: agent },
          { op: "listAll", sessionDir: custom },
          { op: "list", cwd: A, sessionDir: custom },
        ]);
        const ours = async (args: string[]) =>
          (
            await runCliJson<
              { path: string; modified: string; messageCount: number; firstMessage: string; name: string | null }[]
            >(["list", "--json", ...args], { env: env() })
          ).json;
        const pick = (r: {
          path: string;
          modified: string;
          messageCount: number;
          firstMessage: string;
          name: string | null;
        }) => [r.path, r.modified, r.messageCount, r.firstMessage, r.name];
        expect((await ours(["--all"])).map(pick)).toEqual(all.map(pick));
        expect((await ours(["--cwd", A])).map(pick)).toEqual(listA.map(pick));
        expect((await ours(["--cwd", B])).map(pick)).toEqual(listB.map(pick));
        expect((await ours(["--all", "--session-dir", custom])).map(pick)).toEqual(flatAll.map(pick));
        expect((await ours(["--cwd", A, "--session-dir", custom])).map(pick)).toEqual(flatA.map(pick));
        expect(all.map((r) => r.path)).toContain(written.noReply.path);
      });

      it("reads every session as pi: leaf, branch, labels, name, the model's context, /session totals", async () => {
        const paths = Object.values(written).map((w) => w.path);
        const pi = await ask<PiSession>(paths.map((file) => ({ op: "describe" as const, file })));
        for (let i = 0; i < paths.length; i++) {
          const { json } = await runCliJson<{
            leafId: string;
            activePath: string[];
            labels: Record<string, string>;
            name: string | null;
            context: { entryIds: string[]; roles: string[] };
            usage: PiSession["sessionStats"];
          }>(["show", paths[i], "--json"]);
          expect(json.leafId, paths[i]).toBe(pi[i].leafId);
          expect(json.activePath).toEqual(pi[i].branch);
          expect(json.labels).toEqual(pi[i].labels);
          expect(json.name).toBe(pi[i].name);
          expect(json.context.entryIds).toEqual(pi[i].contextEntryIds);
          expect(json.context.roles).toEqual(pi[i].contextRoles);
          expect(json.usage.tokens).toEqual(pi[i].sessionStats.tokens);
          expect(Math.abs(json.usage.cost - pi[i].sessionStats.cost)).toBeLessThan(1e-6);
        }
        // The rich session's totals include the usage entry, the tool result, the compaction and the branch summary.
        const rich = pi[0].sessionStats;
        expect(rich.tokens.cacheRead).toBeGreaterThan(40000);
      });

      it("the rich session at every leaf it had: context as pi builds it there", async () => {
        const ids = written.rich.ids.filter((x): x is string => x !== null);
        const pi = await ask<PiSession>(
          ids.map((leafId) => ({ op: "describe" as const, file: written.rich.path, leafId })),
        );
        const index = await loadSessionIndex(written.rich.path);
        const { buildContext } = await import("../src/model/context.js");
        ids.forEach((leafId, i) => {
          const c = buildContext(index, leafId);
          expect(c.entryIds, `at ${leafId}`).toEqual(pi[i].contextEntryIds);
          expect(c.roles, `at ${leafId}`).toEqual(pi[i].contextRoles);
        });
      });

      it("the /tree filters row for row as pi's", async () => {
        const paths = Object.values(written).map((w) => w.path);
        const pi = await ask<Record<string, string[]>>(paths.map((file) => ({ op: "treeRows" as const, file })));
        for (let i = 0; i < paths.length; i++) {
          const index = await loadSessionIndex(paths[i]);
          for (const f of TREE_FILTERS)
            expect(
              buildTreeView(index, f, new Set()).rows.map((r) => r.id),
              `${paths[i]} ${f}`,
            ).toEqual(pi[i][f === "labelled-only" ? "labeled-only" : f]);
        }
      });

      it("finds the custom id as pi's findById", async () => {
        const [found] = await ask<string | null>([{ op: "findById", cwd: B, id: "job.v3", agentDir: agent }]);
        expect(found).toBe(written.customId.path);
        const { json } = await runCliJson<{ path: string }>(["show", "job.v3", "--json"], { env: env() });
        expect(json.path).toBe(found);
      });
    });

    describe.skipIf(skip)(`threaded order as pi ${version}'s /resume picker`, () => {
      it("a thread sorts by the latest activity anywhere under it, and so do forks under their parent", async () => {
        const agentDir = join(makeTmpDir("pi15-threads-"), "agent");
        const dir = join(agentDir, "sessions", cwdFolderName(A));
        const [r1, r2, r3] = await ask<{ path: string; files: string[] }>([
          // r1 (activity 2) has a fork active at 51: the whole thread comes first.
          {
            op: "write",
            cwd: A,
            dir,
            steps: [
              user("r1", T + 1),
              reply("r1 a", T + 2),
              { do: "fork", ref: "$1" },
              user("f1", T + 50),
              reply("f1 a", T + 51),
            ],
          },
          { op: "write", cwd: A, dir, steps: [user("r2", T + 10), reply("r2 a", T + 20)] },
          // r3 (31) with two forks: one untouched (31), one active at 41, which goes first.
          {
            op: "write",
            cwd: A,
            dir,
            steps: [
              user("r3", T + 30),
              reply("r3 a", T + 31),
              { do: "fork", ref: "$1" },
              { do: "reopen" },
              { do: "fork", ref: "$1" },
              user("f3b", T + 40),
              reply("f3b a", T + 41),
            ],
          },
        ]);
        const [piRows] = await ask<[string, number][]>([{ op: "threaded", agentDir }]);
        const { scanStore } = await import("../src/scan/scan-store.js");
        const { deriveRows } = await import("../src/browser/list/derive.js");
        const { parseQuery } = await import("../src/search/query.js");
        const { sessions } = await scanStore(join(agentDir, "sessions"), {}, { probe: false });
        const ours = deriveRows(new Map(sessions.map((s) => [s.path, s])), {
          scope: "all",
          cwd: A,
          storeDir: join(agentDir, "sessions"),
          query: parseQuery(""),
          sort: "threaded",
        }).rows;
        expect(ours.map((r) => [r.session.path, r.depth])).toEqual(piRows);
        expect(piRows.slice(0, 2)).toEqual([
          [r1.files[0], 0],
          [r1.files[1], 1],
        ]);
        expect(piRows.map((r) => r[0])).toContain(r2.path);
        // r1's thread, r3's thread with its busier fork first, then r2.
        expect(piRows).toEqual([
          [r1.files[0], 0],
          [r1.files[1], 1],
          [r3.files[0], 0],
          [r3.files[2], 1],
          [r3.files[1], 1],
          [r2.path, 0],
        ]);
      });
    });
  });
}
