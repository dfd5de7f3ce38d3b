import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { assistant, HEADER, user } from "./helpers/session-file.js";
import { cleanupTmp, makeTmpDir } from "./helpers/tmp-store.js";

/*
 * QA pass: every command takes -q / --quiet and then says nothing on stderr. The store's
 * settings file is not JSON, so each command has a warning to keep to itself.
 */
let root: string;
let env: NodeJS.ProcessEnv;
const id = HEADER.id;

beforeAll(() => {
  root = makeTmpDir("pi-sessions-quiet-");
  const agent = join(root, "agent");
  const folder = join(agent, "sessions", "--p--");
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(agent, "settings.json"), "not json");
  writeFileSync(join(root, "config.json"), "not json either");
  const lines = [{ ...HEADER, cwd: "/p" }, user("u1", null, "hello world"), assistant("a1", "u1", "hi")];
  writeFileSync(
    join(folder, `2026-05-02T09-14-03-221Z_${id}.jsonl`),
    lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  env = {
    HOME: root,
    PI_CODING_AGENT_DIR: agent,
    PI_SESSIONS_CACHE_DIR: join(root, "cache"),
    XDG_DATA_HOME: join(root, "data"),
    XDG_STATE_HOME: join(root, "state"),
  };
});
afterAll(cleanupTmp);

// In this order: index before index --status, delete before restore.
const COMMANDS: string[][] = [
  ["list", "-a"],
  ["search", "-a", "hello"],
  ["show", id],
  ["stats", "-a"],
  ["index"],
  ["index", "--status"],
  ["export", id],
  ["rename", id, "quiet name"],
  ["label", id, "u1", "keep"],
  ["config", "--config", "CONFIG"],
  ["delete", id, "--yes"],
  ["restore", "--last"],
];

describe("-q / --quiet on every command", () => {
  it("is accepted by each, which then writes nothing on stderr", async () => {
    const args = (a: string[]) => a.map((x) => (x === "CONFIG" ? join(root, "config.json") : x));
    for (const [i, cmd] of COMMANDS.entries()) {
      const flag = i % 2 ? "--quiet" : "-q";
      const r = await runCli([...args(cmd), flag], { env, cwd: root });
      expect(r.stderr, cmd.join(" ")).toBe("");
      expect(r.code, cmd.join(" ")).toBe(0);
      // `index` says what it did on stderr only: quiet, it says nothing at all.
      if (cmd.join(" ") !== "index") expect(r.stdout.length, cmd.join(" ")).toBeGreaterThan(0);
    }
  });
  it("without it, the same commands warn (so the test above proves something)", async () => {
    for (const cmd of [
      ["list", "-a"],
      ["show", id],
      ["config", "--config", join(root, "config.json")],
    ]) {
      const r = await runCli(cmd, { env, cwd: root });
      expect(r.stderr, cmd.join(" ")).toMatch(/not valid JSON/);
    }
  });
  it("keeps the error that ends a command (and its exit status)", async () => {
    const r = await runCli(["show", "no-such-session", "-q"], { env, cwd: root });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^pi-sessions: no session matches 'no-such-session'/);
  });
});
