import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, makeTmpDir } from "./helpers/tmp-store.js";

afterAll(cleanupTmp);

function setup() {
  const root = makeTmpDir("pi-sessions-cli-trash-");
  const env = { HOME: root, XDG_DATA_HOME: join(root, "data"), XDG_STATE_HOME: join(root, "state") };
  const session = (store: string, name: string, id: string) => {
    mkdirSync(join(store, "--p--"), { recursive: true });
    const path = join(store, "--p--", name);
    writeFileSync(
      path,
      `${JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-05-02T09:14:03.221Z", cwd: "/p" })}\n`,
    );
    return path;
  };
  return { root, env, session };
}

describe("delete and restore from the command line (issues 20 and 21)", () => {
  it("restore --last stays within the current store", async () => {
    const t = setup();
    const a = join(t.root, "a"),
      b = join(t.root, "b");
    const inA = t.session(a, "2026-05-02T09-14-03-221Z_one.jsonl", "one-0001");
    const inB = t.session(b, "2026-05-02T09-14-03-221Z_two.jsonl", "two-0002");
    expect((await runCli(["delete", inA, "--yes", "--session-dir", a], { env: t.env })).code).toBe(0);
    expect((await runCli(["delete", inB, "--yes", "--session-dir", b], { env: t.env })).code).toBe(0);
    // The last delete was in b; from a, --last means a's last batch.
    const r = await runCli(["restore", "--last", "--session-dir", a], { env: t.env });
    expect(r.code).toBe(0);
    expect(existsSync(inA)).toBe(true);
    expect(existsSync(inB)).toBe(false);
  });
  it("delete's undo hint is a command that works, --session-dir and all (QA pass)", async () => {
    const t = setup();
    const store = join(t.root, "my store's");
    const path = t.session(store, "2026-05-02T09-14-03-221Z_one.jsonl", "one-0001");
    const r = await runCli(["delete", path, "--yes", "--session-dir", store], { env: t.env });
    expect(r.code).toBe(0);
    const hint = /^undo with: (pi-sessions restore --last .*)$/m.exec(r.stderr)?.[1];
    expect(hint).toBe(`pi-sessions restore --last --session-dir '${store.replace(/'/g, `'\\''`)}'`);
    expect(existsSync(path)).toBe(false);
    // Run as printed, by a shell, with the built program as pi-sessions.
    const cli = join(import.meta.dirname, "..", "dist", "bundle", "cli.js");
    const run = spawnSync("bash", ["--norc", "--noprofile", "-c", `pi-sessions() { "$NODE" "$CLI" "$@"; }; ${hint}`], {
      encoding: "utf8",
      env: { ...t.env, PATH: process.env.PATH, NODE: process.execPath, CLI: cli },
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(existsSync(path)).toBe(true);
  });
  it("delete's undo hint is plain when the store needs no --session-dir", async () => {
    const t = setup();
    const store = join(t.root, "s");
    const path = t.session(store, "2026-05-02T09-14-03-221Z_one.jsonl", "one-0001");
    const r = await runCli(["delete", path, "--yes"], { env: { ...t.env, PI_CODING_AGENT_SESSION_DIR: store } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^undo with: pi-sessions restore --last$/m);
  });
  it("delete records the session id: restore <id> finds a file whose name lacks it", async () => {
    const t = setup();
    const store = join(t.root, "s");
    const path = t.session(store, "renamed-by-hand.jsonl", "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0000");
    expect((await runCli(["delete", path, "--yes", "--session-dir", store], { env: t.env })).code).toBe(0);
    const r = await runCli(["restore", "0199aaaa", "--session-dir", store], { env: t.env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(existsSync(path)).toBe(true);
  });
});
