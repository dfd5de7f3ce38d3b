// Two files with one session id (pi 1.5.2's store has x.jsonl and x-1.jsonl, an /import done
// twice). Reading by that id takes the one pi opens and says so; writing by it is refused.
import { readdirSync, readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "./helpers/cli.js";
import { cleanupTmp, copyStore, FIXTURES, makeTmpDir } from "./helpers/tmp-store.js";

const ID = "0199bbbb-0000-7000-8000-00000000000d";

let store: string;
let older: string;
let newer: string;
let env: NodeJS.ProcessEnv;
/** Somewhere outside the sessions' folders: the newer file is the one taken. */
let cwd: string;

beforeAll(() => {
  store = copyStore(join(FIXTURES, "pi-1.5.2", "agent", "sessions"));
  const folder = join(store, "--home-kim-pi15-cwds-proj-a--");
  const twins = readdirSync(folder).filter((f) => f.includes(ID));
  expect(twins).toHaveLength(2);
  [older, newer] = twins.map((f) => join(folder, f)).sort();
  utimesSync(older, new Date("2026-11-01T09:00:00Z"), new Date("2026-11-01T09:00:00Z"));
  utimesSync(newer, new Date("2026-11-02T09:00:00Z"), new Date("2026-11-02T09:00:00Z"));
  cwd = makeTmpDir();
  env = { PI_SESSIONS_CACHE_DIR: makeTmpDir(), XDG_DATA_HOME: makeTmpDir() };
});
afterAll(cleanupTmp);

const cli = (args: string[]) => runCli([...args, "--session-dir", store], { cwd, env });

/** Every file of the store, byte for byte. */
function snapshot(): Map<string, string> {
  const files = readdirSync(store, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
  return new Map(files.map((f) => [f, readFileSync(join(store, f), "latin1")]));
}

describe("an id two files share", () => {
  it("show and export take the one pi picks, and say on stderr which, out of how many, and that a path chooses", async () => {
    const note = `pi-sessions: 2 files have the session id ${ID}; using ${newer} (pi's pick: this folder's, else the newest); give a path to choose exactly\n`;
    const { json, stderr } = await runCliJson<{ path: string }>(["show", ID, "--json", "--session-dir", store], {
      cwd,
      env,
    });
    expect(json.path).toBe(newer);
    expect(stderr).toBe(note);
    const exported = await cli(["export", ID]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/^# /);
    expect(exported.stderr).toBe(note);
    // -q keeps stderr empty; a path says nothing, there being no choice.
    expect((await cli(["show", ID, "-q"])).stderr).toBe("");
    const byPath = await cli(["show", older, "--json"]);
    expect(byPath.stderr).toBe("");
    expect(JSON.parse(byPath.stdout).path).toBe(older);
  });

  it("rename, label and delete refuse it (exit 2), naming both files; nothing is written", async () => {
    const before = snapshot();
    for (const args of [
      ["rename", ID, "new name"],
      ["label", ID, "eeee0001", "keep"],
      ["delete", ID, "--yes"],
      ["delete", ID, "--yes", "--permanent"],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        `pi-sessions: '${ID}' is ambiguous: 2 files have that session id (${newer}, ${older}); give the path of the one you mean\n`,
      );
    }
    expect(snapshot()).toEqual(before);
  });

  it("a path still writes to exactly that file", async () => {
    const r = await cli(["rename", older, "the first import"]);
    expect(r.code).toBe(0);
    expect(readFileSync(older, "utf8")).toContain('"name":"the first import"');
    expect(readFileSync(newer, "utf8")).not.toContain("the first import");
  });
});
