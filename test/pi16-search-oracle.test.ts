// pi 1.6.0, the reference pi, run in a child process (test/oracle): every session its /resume
// picker finds by a literal hit of every word of a query (in the name, the id, what the user
// and the assistant wrote, or the folder; each word on its own) is found by pi-sessions too:
// by `search` and by the browser's search, each with the index and without it. The queries
// are random, drawn from the sessions pi lists: a folder word and a message word, an id
// prefix and a message word, a name word and a folder word.
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchTargets } from "../components/hooks/useFullTextSearch.js";
import { bodyNeed, deriveRows } from "../src/browser/list/derive.js";
import type { SessionMap } from "../src/browser/list/sessions.js";
import { storeSearch } from "../src/index/store-search.js";
import { scanStore } from "../src/scan/scan-store.js";
import { searchFiles, type BodyHit, type FullTextFn } from "../src/search/fulltext.js";
import { parseQuery } from "../src/search/query.js";
import { runCli, runCliJson } from "./helpers/cli.js";
import { cleanupTmp, copyStore, FIXTURES, makeTmpDir, PI_STORE, REPO } from "./helpers/tmp-store.js";
import { askPi, oracleSkipReason, PI_REFERENCE } from "./oracle/pi15.js";

const version = PI_REFERENCE;
const skip = oracleSkipReason(version);
/** Queries per store. */
const RUNS = 36;
const SEED = Number(process.env.PI_SEARCH_ORACLE_SEED ?? Date.now() % 1_000_000);

interface PiInfo {
  path: string;
  id: string;
  cwd: string;
  name: string | null;
  allMessagesText: string;
}

function generatedStore(): string {
  const out = makeTmpDir("pi-sessions-gen-");
  execFileSync(process.execPath, [
    join(REPO, "bench", "gen-store.mjs"),
    ...["--out", out, "--sessions", "60", "--projects", "6", "--avg-kb", "6", "--seed", "11"],
  ]);
  return join(out, "sessions");
}

/**
 * The words of a text a query can carry as they are: three or more letters, digits, `_` or
 * `-`, lower-case (a capital makes a word case-sensitive here, pi lower-cases it), and none
 * that this project's grammar reads otherwise (`today`, `7d`: dates; a `:` prefix is a field).
 */
function wordsOf(text: string): string[] {
  return text
    .split(/[^\p{L}\p{N}_-]+/u)
    .map((w) => w.toLowerCase())
    .filter((w) => [...w].length >= 3 && w !== "today" && !/^\d+d$/.test(w));
}

type Kind = "folder+message" | "id+message" | "name+folder";

/** A query of two words drawn from one session as pi lists it (undefined when it has no such words). */
function queryOf(s: PiInfo, kind: Kind, a: number, b: number, swap: boolean): string | undefined {
  const folder = wordsOf(s.cwd);
  const message = wordsOf(s.allMessagesText);
  const name = wordsOf(s.name ?? "");
  const [x, y] =
    kind === "folder+message"
      ? [folder, message]
      : kind === "id+message"
        ? [[s.id.slice(0, 8).toLowerCase()].filter((w) => wordsOf(w).length === 1), message]
        : [name, folder];
  if (x.length === 0 || y.length === 0) return undefined;
  const words = [x[a % x.length], y[b % y.length]];
  return (swap ? words.reverse() : words).join(" ");
}

/** pi's own literal match of one word (matchLiteralToken): lower-cased, in the name, id, messages or folder. */
function literal(s: PiInfo, word: string): boolean {
  const v = word.toLowerCase();
  return [s.name ?? "", s.id, s.allMessagesText, s.cwd].some((f) => f.toLowerCase().includes(v));
}

/** The browser's search: the full-text search as its hook runs it, then its rows. */
async function browserFinds(sessions: SessionMap, storeDir: string, text: string, fullText: FullTextFn) {
  const query = parseQuery(text);
  const hits = new Map<string, BodyHit>();
  const targets = searchTargets({ sessions, scope: "all", launchCwd: "/", storeDir });
  await fullText(targets, query, {
    includeTools: false,
    need: bodyNeed(sessions, query),
    onMatch: (path, snippet, held) => hits.set(path, { snippet, held: [...held] }),
  });
  const { rows } = deriveRows(sessions, { scope: "all", cwd: "/", storeDir, query, sort: "recent", fullText: hits });
  return rows.map((r) => r.session.path);
}

afterAll(cleanupTmp);

const STORES: [string, () => string][] = [
  ["a generated store", generatedStore],
  ["the demo store pi wrote (fixtures/pi-generated)", () => copyStore(PI_STORE)],
  ["the store pi 1.5.2 wrote (fixtures/pi-1.5.2)", () => copyStore(join(FIXTURES, "pi-1.5.2", "agent", "sessions"))],
];

describe.skipIf(skip).each(STORES)(`search finds what pi ${version}'s picker finds: %s`, (_name, make) => {
  let store: string;
  let infos: PiInfo[];
  beforeAll(async () => {
    store = make();
    // Every store here is an agent folder's sessions/: pi lists it as its own.
    [infos] = await askPi<PiInfo[]>([{ op: "listAll", agentDir: dirname(store) }], { version });
  }, 60_000);

  it("every session pi finds by a literal hit of every word (each word anywhere) is found here, by search and the browser, with and without the index", async () => {
    expect(infos.length).toBeGreaterThan(5);
    const arb = fc
      .record({
        i: fc.nat(),
        kind: fc.constantFrom<Kind>("folder+message", "id+message", "name+folder"),
        a: fc.nat(),
        b: fc.nat(),
        swap: fc.boolean(),
      })
      .map(({ i, kind, a, b, swap }) => queryOf(infos[i % infos.length], kind, a, b, swap))
      .filter((q): q is string => q !== undefined);
    const queries = [...new Set(fc.sample(arb, { numRuns: RUNS, seed: SEED }))];
    const [piFound] = await askPi<string[][]>([{ op: "picker", agentDir: dirname(store), queries }], { version });
    const byPath = new Map(infos.map((s) => [s.path, s]));

    const cache = makeTmpDir("pi-sessions-cache-");
    const withIndex = { PI_SESSIONS_CACHE_DIR: cache };
    expect((await runCli(["index", "--session-dir", store], { env: withIndex })).code).toBe(0);
    const sessions: SessionMap = new Map((await scanStore(store)).sessions.map((s) => [s.path, s]));
    const indexed = storeSearch(store, withIndex);

    let compared = 0;
    for (let k = 0; k < queries.length; k++) {
      const words = queries[k].split(" ");
      const want = piFound[k].filter((p) => words.every((w) => literal(byPath.get(p)!, w))).sort();
      const why = `seed ${SEED}, query ${JSON.stringify(queries[k])}`;
      // The query was drawn from a session that holds both words: pi finds it.
      expect(want.length, why).toBeGreaterThan(0);
      const ours = async (env: NodeJS.ProcessEnv) =>
        (
          await runCliJson<{ path: string }[]>(
            ["search", "--session-dir", store, "--all", "--json", "-n", "100000", ...words],
            { env },
          )
        ).json.map((h) => h.path);
      const found = {
        "search without the index": await ours({ PI_SESSIONS_INDEX: "0" }),
        "search with the index": await ours(withIndex),
        "the browser without the index": await browserFinds(sessions, store, queries[k], searchFiles),
        "the browser with the index": await browserFinds(sessions, store, queries[k], indexed),
      };
      for (const [how, paths] of Object.entries(found)) {
        const missing = want.filter((p) => !paths.includes(p));
        expect(missing, `${how}: ${why}`).toEqual([]);
      }
      compared++;
    }
    expect(compared).toBeGreaterThan(RUNS / 3);
  }, 240_000);
});
