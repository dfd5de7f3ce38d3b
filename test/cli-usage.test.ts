// Issue 15: usage errors in our words, id prefixes `show` accepts, the agent folder hint,
// config's key names and the demo store copy.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyDemoStore, storeFromArgs } from "../src/cli/common/store-arg.js";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, copyStore, makeTmpDir, PI_STORE } from "./helpers/tmp-store.js";

afterAll(cleanupTmp);

describe("usage errors", () => {
  it("restore without an argument: exit 2 and what it needs", async () => {
    const r = await runCli(["restore"], { env: { XDG_DATA_HOME: makeTmpDir() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "pi-sessions: restore needs a <session> (id, path or file name) or --last (see pi-sessions restore --help)\n",
    );
  });

  it("restore with both a session and --last: exit 2", async () => {
    const r = await runCli(["restore", "abc", "--last"], { env: { XDG_DATA_HOME: makeTmpDir() } });
    expect(r.code).toBe(2);
  });

  it.each([
    [["--bogus"], "pi-sessions: unknown option '--bogus' (see pi-sessions --help)\n"],
    [["list", "-x"], "pi-sessions: unknown option '-x' (see pi-sessions --help)\n"],
    [["list", "--session-dir"], "pi-sessions: --session-dir needs a value (see pi-sessions --help)\n"],
    [["list", "--all=yes"], "pi-sessions: --all takes no value (see pi-sessions --help)\n"],
    // A value that starts with '-': a negative number is the option's value, and gets the
    // option's own message; anything else is a missing value, not a value "it takes not".
    [["search", "foo", "-n", "-1"], "pi-sessions: --limit takes a positive whole number (got '-1')\n"],
    [["search", "foo", "--limit", "-5"], "pi-sessions: --limit takes a positive whole number (got '-5')\n"],
    [["search", "foo", "-n", "x"], "pi-sessions: --limit takes a positive whole number (got 'x')\n"],
    [["stats", "--since", "-7d"], "pi-sessions: --since takes a day as YYYY-MM-DD, today or Nd (got '-7d')\n"],
    [
      ["search", "foo", "--limit", "--json"],
      "pi-sessions: --limit needs a value (one starting with '-' is written --limit=VALUE; see pi-sessions search --help)\n",
    ],
    [
      ["search", "foo", "-n", "--json"],
      "pi-sessions: --limit needs a value (one starting with '-' is written --limit=VALUE; see pi-sessions search --help)\n",
    ],
    [
      ["list", "--sort", "-x"],
      "pi-sessions: --sort needs a value (one starting with '-' is written --sort=VALUE; see pi-sessions --help)\n",
    ],
    [["search", "foo", "-n"], "pi-sessions: --limit needs a value (see pi-sessions search --help)\n"],
  ])("%j: one line of ours, exit 2", async (argv, line) => {
    const r = await runCli(argv, { isTTY: true });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(line);
  });
});

describe("list --cwd prints id prefixes that show accepts", () => {
  it("prefixes are unique across the whole store, not only the listed folder", async () => {
    // Two sessions in different folders whose ids share a long prefix.
    const store = makeTmpDir();
    const ids = ["0199aaaa-bbbb-7ccc-8ddd-000000000001", "0199aaaa-bbbb-7ccc-8ddd-000000000002"];
    const cwds = ["/proj/one", "/proj/two"];
    ids.forEach((id, i) => {
      // pi's own project folder for the cwd (its list(cwd) goes by the folder).
      const dir = join(store, `--${cwds[i].slice(1).replace(/\//g, "-")}--`);
      mkdirSync(dir);
      const header = { type: "session", version: 3, id, timestamp: "2025-01-01T00:00:00.000Z", cwd: cwds[i] };
      const msg = {
        type: "message",
        id: `e${i}`,
        parentId: null,
        timestamp: "2025-01-01T00:00:01.000Z",
        message: { role: "user", content: "hi", timestamp: 1 },
      };
      writeFileSync(join(dir, `s${i}.jsonl`), JSON.stringify(header) + "\n" + JSON.stringify(msg) + "\n");
    });
    const r = await runCli(["list", "--cwd", "/proj/one", "--session-dir", store]);
    expect(r.code).toBe(0);
    const prefix = r.stdout
      .split("\n")[1]
      .split(/\s+/)
      .find((c) => ids[0].startsWith(c) && c.length >= 8)!;
    expect(prefix).toBeDefined();
    const shown = await runCli(["show", prefix, "--json", "--session-dir", store]);
    expect(shown.stderr).toBe("");
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout).header.id).toBe(ids[0]);
  });
});

describe("--session-dir at pi's agent folder", () => {
  it("says where the sessions are", async () => {
    const agent = join(makeTmpDir(), "agent");
    mkdirSync(agent);
    const sessions = copyStore(PI_STORE);
    const inner = join(agent, "sessions");
    // The agent folder: settings beside the sessions folder.
    writeFileSync(join(agent, "settings.json"), "{}");
    mkdirSync(inner);
    for (const d of readdirSync(sessions)) mkdirSync(join(inner, d));
    const r = await runCli(["list", "--all", "--session-dir", agent]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`its sessions are in ${inner} (use --session-dir ${inner})`);
  });

  it("a store with sessions beside a folder named sessions is taken as it is", async () => {
    const store = copyStore(PI_STORE);
    mkdirSync(join(store, "sessions"));
    const r = await runCli(["list", "--all", "--json", "--session-dir", store]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
  });
});

describe("config", () => {
  it("warns about a key binding for a command that does not exist", async () => {
    const file = join(makeTmpDir(), "config.json");
    writeFileSync(file, JSON.stringify({ keys: { "list.dwn": ["j"], "list.down": ["n"] } }));
    const r = await runCli(["config", "--config", file]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('unknown command "list.dwn"');
    expect(r.stderr).not.toContain('"list.down"');
  });
});

describe("the demo store", () => {
  it("opens a copy, byte for byte, outside the bundled folder", () => {
    const home = makeTmpDir();
    const loc = storeFromArgs(
      undefined,
      { cwd: home, env: { HOME: home }, isTTY: true, stdout: () => {}, stderr: () => {} },
      PI_STORE,
    );
    expect(loc.source).toBe("fallback");
    expect(relative(PI_STORE, loc.dir).startsWith("..")).toBe(true);
    const files = (dir: string) =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile())
        .map((d) => relative(dir, join(d.parentPath, d.name)))
        .sort();
    expect(files(loc.dir)).toEqual(files(PI_STORE));
    for (const f of files(PI_STORE))
      expect(readFileSync(join(loc.dir, f)).equals(readFileSync(join(PI_STORE, f)))).toBe(true);
    rmSync(dirname(loc.dir), { recursive: true });
  });

  it("each copy is fresh", () => {
    const [a, b] = [copyDemoStore(PI_STORE), copyDemoStore(PI_STORE)];
    expect(a).not.toBe(b);
    for (const c of [a, b]) rmSync(dirname(c), { recursive: true });
  });
});
