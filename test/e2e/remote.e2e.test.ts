import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { addProjectSession } from "../helpers/project-session.js";
import { startSshd, type RemoteHost, type Sshd } from "../helpers/sshd.js";
import { cleanupTmp, makeTmpDir } from "../helpers/tmp-store.js";
import { pressCommand, selectedLine, selectRow } from "./driver.js";
import { appStarter, shQuote, startShell, type RunningApp } from "./pty.js";

/*
 * The browser with two other machines, end to end: a real sshd on 127.0.0.1 with two
 * remote homes (test/helpers/sshd.ts), each with its store, this checkout's pi-sessions
 * and a fake pi that notes where it ran and with what; the browser in a pseudo-terminal.
 * The last test stops the server: it runs last.
 */

const start = appStarter();
const shells: RunningApp[] = [];
afterEach(() => shells.splice(0).forEach((a) => a.kill()));

let sshd: Sshd | { skip: string };
let alpha: RemoteHost;
let beta: RemoteHost;
const paths: Record<string, string> = {};
let localStore: string;
let localCwd: string;
let env: Record<string, string | undefined>;

/** A pi for a host's PATH: notes its folder and arguments in the host's home. */
const FAKE_PI = `#!/bin/sh\nprintf '%s\\n%s\\n' "$(pwd)" "$*" > "$HOME/pi-ran"\nexit 0\n`;

/** An assistant reply after `parentId` that cost `cost` dollars (1,000 tokens in, 200 out). */
const costly = (parentId: string, cost: number) => ({
  type: "message",
  id: "a2",
  parentId,
  timestamp: "2026-11-23T07:00:02.000Z",
  message: {
    role: "assistant",
    content: [{ type: "text", text: "costly" }],
    provider: "p",
    model: "m",
    usage: {
      input: 1000,
      output: 200,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 1200,
      cost: { input: cost, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
    },
    stopReason: "stop",
    timestamp: Date.parse("2026-11-23T07:00:02.000Z"),
  },
});

beforeAll(async () => {
  sshd = await startSshd(["alpha", "beta", "slow"], (h) => {
    // A host whose pi-sessions never answers (for longer than the test): the user quits first.
    if (h.name === "slow") {
      writeFileSync(join(h.bin, "pi-sessions"), "#!/bin/sh\nexec sleep 30\n");
      return;
    }
    const cwd = join(h.home, "proj");
    mkdirSync(cwd);
    paths[h.name] = addProjectSession(h.store, cwd, `${h.name} remote notes`, {
      n: h.name === "alpha" ? 1 : 2,
      at: `2026-11-2${h.name === "alpha" ? 2 : 3}T07:00:00.000Z`,
    });
    // A word deep in beta's conversation only: a full-text hit there.
    if (h.name === "beta")
      appendFileSync(
        paths.beta,
        JSON.stringify({
          type: "message",
          id: "u2",
          parentId: "a1",
          timestamp: "2026-11-23T07:00:01.000Z",
          message: { role: "user", content: "what about the zebracorn parser?", timestamp: 2 },
        }) + "\n",
      );
    // Usage there: beta's conversation cost $2.50 (the usage view counts it from here).
    if (h.name === "beta") appendFileSync(paths.beta, JSON.stringify(costly("u2", 2.5)) + "\n");
    // A session of a folder since removed on beta: Enter leaves the question to pi there.
    if (h.name === "beta")
      paths.betaGone = addProjectSession(h.store, join(h.home, "removed-project"), "beta folder gone", {
        n: 4,
        at: "2026-11-20T07:00:00.000Z",
      });
    if (h.name === "beta")
      addProjectSession(h.store, join(h.home, "proj"), "beta spare", { n: 5, at: "2026-11-19T07:00:00.000Z" });
    writeFileSync(join(h.bin, "pi"), FAKE_PI);
    chmodSync(join(h.bin, "pi"), 0o755);
  });
  if ("skip" in sshd) return;
  [alpha, beta] = sshd.hosts;
  localStore = join(makeTmpDir(), "sessions");
  localCwd = realpathSync(makeTmpDir("pi-sessions-e2e-project-"));
  paths.local = addProjectSession(localStore, localCwd, "local notes", { n: 3, at: "2026-11-21T07:00:00.000Z" });
  appendFileSync(paths.local, JSON.stringify(costly("a1", 1)) + "\n");
  const home = makeTmpDir();
  env = {
    ...sshd.env,
    HOME: home,
    PI_SESSIONS_CACHE_DIR: join(home, "cache"),
    XDG_DATA_HOME: join(home, "data"),
    XDG_STATE_HOME: join(home, "state"),
    XDG_CONFIG_HOME: join(home, "config"),
    PI_SESSIONS_REMOTE_TIMEOUT: "6",
    PI_CODING_AGENT_DIR: undefined,
    PI_CODING_AGENT_SESSION_DIR: undefined,
  };
}, 60_000);

afterAll(async () => {
  if ("stop" in sshd) await sshd.stop();
  cleanupTmp();
});

function needsSshd(): boolean {
  if ("skip" in sshd) {
    console.warn(`remote e2e tests skipped: ${sshd.skip}`);
    return false;
  }
  return true;
}

const browser = (...extra: string[]) =>
  start(["--session-dir", localStore, "--host", "alpha", "--host", "beta", ...extra], { cwd: localCwd, env });

/** Every machine's rows listed, each host answered (alpha's session is renamed on the way). */
const allListed = (s: string) =>
  s.includes("local notes") &&
  (s.includes("alpha remote notes") || s.includes("named over ssh")) &&
  s.includes("beta remote notes") &&
  /alpha ✓/.test(s) &&
  /beta ✓/.test(s);

describe("the browser with two hosts (pty, a real sshd)", () => {
  it("one list: this machine's rows first, then each host's, labelled; the preview of a host's session", async () => {
    if (!needsSshd()) return;
    const app = browser();
    const screen = await app.waitFor(allListed, 20_000);
    expect(screen).toMatch(/every host/);
    const lines = screen.split("\n");
    const at = (t: string) => lines.findIndex((l) => l.includes(t));
    expect(at("local notes")).toBeLessThan(at("alpha remote notes"));
    expect(at("alpha remote notes")).toBeLessThan(at("beta remote notes"));
    expect(lines[at("beta remote notes")]).toMatch(/beta:/);
    expect(lines[at("local notes")]).not.toMatch(/alpha:|beta:/);
    await selectRow(app, "beta remote notes");
    // The preview reads the host's file (through its copy here) and names it as the host's.
    const preview = await app.waitFor((s) => /host\s+beta/.test(s) && s.includes("ok"));
    expect(preview).toContain(paths.beta.slice(-30));
    // A word only in beta's conversation: the host's own search finds it there.
    await pressCommand(app, "search.start");
    await app.type("zebracorn");
    const hit = await app.waitFor((s) => s.includes("beta remote notes") && s.includes("zebracorn parser"), 15_000);
    expect(hit).not.toContain("alpha remote notes");
    await pressCommand(app, "search.cancel");
    await app.waitFor((s) => s.includes("alpha remote notes") || s.includes("named over ssh"));
    // Tab: this folder, all folders (this machine's), every host again.
    await pressCommand(app, "scope.toggle");
    await app.waitFor((s) => s.includes("Sessions · this folder") && !s.includes("beta remote notes"));
    await pressCommand(app, "scope.toggle");
    await app.waitFor((s) => s.includes("Sessions · all folders") && !s.includes("beta remote notes"));
    await pressCommand(app, "scope.toggle");
    await app.waitFor((s) => s.includes("Sessions · every host") && s.includes("beta remote notes"));
    await pressCommand(app, "app.quit");
    expect((await app.exited).exitCode).toBe(0);
  }, 60_000);

  it("the reader and the tree of a host's session", async () => {
    if (!needsSshd()) return;
    const app = browser();
    await app.waitFor(allListed, 20_000);
    await selectRow(app, "alpha remote notes");
    await pressCommand(app, "reader.open");
    await app.waitFor((s) => s.includes("alpha remote notes") && /\bok\b/.test(s) && !s.includes("Sessions ·"));
    await pressCommand(app, "reader.close");
    await app.waitFor((s) => s.includes("Sessions · every host"));
    await pressCommand(app, "tree.open");
    await app.waitFor((s) => /user: alpha remote notes/.test(s) && /assistant: ok/.test(s));
    await pressCommand(app, "tree.close");
    await pressCommand(app, "app.quit");
    expect((await app.exited).exitCode).toBe(0);
  }, 60_000);

  it("rename, label, delete and undo land in the host's files and trash", async () => {
    if (!needsSshd()) return;
    const app = browser();
    await app.waitFor(allListed, 20_000);
    await selectRow(app, "alpha remote notes");
    await pressCommand(app, "session.rename");
    await app.type("named over ssh");
    await pressCommand(app, "rename.submit");
    await app.waitFor((s) => s.includes('Renamed to "named over ssh"') && selectedLine(s).includes("named over ssh"));
    expect(readFileSync(paths.alpha, "utf8")).toContain('"name":"named over ssh"');
    // A label from the tree, on the entry under the cursor.
    await pressCommand(app, "tree.open");
    await app.waitFor((s) => /assistant: ok/.test(s));
    await pressCommand(app, "tree.label");
    await app.type("from afar");
    await pressCommand(app, "tree.inputSubmit");
    await app.waitFor((s) => s.includes("[from afar]"));
    expect(readFileSync(paths.alpha, "utf8")).toMatch(/"type":"label".*"label":"from afar"/);
    await pressCommand(app, "tree.close");
    await app.waitFor((s) => s.includes("Sessions · every host"));
    // Delete: the dialog says whose trash; the file goes to the host's.
    await pressCommand(app, "session.delete");
    await app.waitFor((s) => s.includes("Move to the trash on alpha") && s.includes(`alpha:${paths.alpha}`.slice(-40)));
    await pressCommand(app, "confirm.yes");
    await app.waitFor((s) => s.includes("Moved 1 session to the trash") && !s.includes("named over ssh"));
    expect(existsSync(paths.alpha)).toBe(false);
    expect(readdirSync(join(alpha.home, ".local", "share", "Trash", "files"))).toHaveLength(1);
    await pressCommand(app, "session.undo");
    await app.waitFor((s) => s.includes("Restored 1 session") && s.includes("named over ssh"));
    expect(readFileSync(paths.alpha, "utf8")).toContain("from afar");
    expect(existsSync(join(env.XDG_DATA_HOME!, "Trash"))).toBe(false);
    await pressCommand(app, "app.quit");
    expect((await app.exited).exitCode).toBe(0);
  }, 90_000);

  it("Enter resumes on the host: its pi runs in the session's folder there, with the session's path there", async () => {
    if (!needsSshd()) return;
    const app = browser("--after-pi", "exit");
    await app.waitFor(allListed, 20_000);
    await selectRow(app, "beta remote notes");
    await pressCommand(app, "session.resume");
    expect((await app.exited).exitCode).toBe(0);
    const [folder, args] = readFileSync(join(beta.home, "pi-ran"), "utf8").split("\n");
    expect(folder).toBe(join(beta.home, "proj"));
    expect(args).toBe(`--session ${paths.beta}`);
    expect(existsSync(join(alpha.home, "pi-ran"))).toBe(false);
  }, 60_000);

  it("Enter on a host's session whose folder is gone there: pi runs in the login folder and asks itself, as locally", async () => {
    if (!needsSshd()) return;
    rmSync(join(beta.home, "pi-ran"), { force: true });
    const app = browser("--after-pi", "exit");
    await app.waitFor((s) => allListed(s) && s.includes("beta folder gone"), 20_000);
    await selectRow(app, "beta folder gone");
    await pressCommand(app, "session.resume");
    expect((await app.exited).exitCode).toBe(0);
    const [folder, args] = readFileSync(join(beta.home, "pi-ran"), "utf8").split("\n");
    expect(folder).toBe(beta.home);
    expect(args).toBe(`--session ${paths.betaGone}`);
  }, 60_000);

  it("the usage view on every host counts each host's sessions, its folders named with their host", async () => {
    if (!needsSshd()) return;
    const app = browser();
    await app.waitFor(allListed, 20_000);
    await pressCommand(app, "usage.open");
    // This machine's $1 and beta's $2.50; alpha's sessions and beta's other one recorded none.
    // The total is whole before alpha (which adds nothing) is counted: wait for every host's count.
    const every = await app.waitFor(
      (s) => s.includes("Usage by day · every host") && s.includes("Total $3.50") && !/counting/.test(s),
      30_000,
    );
    expect(every).toContain("2 of 5 sessions with usage");
    expect(every).not.toMatch(/counting|not counted/);
    await pressCommand(app, "usage.byFolder");
    await app.waitFor((s) => s.includes(`beta:${beta.home}/proj`) && s.includes(localCwd));
    await pressCommand(app, "usage.close");
    // All folders (this machine's): its own $1 alone.
    await pressCommand(app, "scope.toggle");
    await pressCommand(app, "scope.toggle");
    await app.waitFor((s) => s.includes("Sessions · all folders"));
    await pressCommand(app, "usage.open");
    await app.waitFor((s) => s.includes("Usage by day · all folders") && s.includes("Total $1.00"));
    await pressCommand(app, "usage.close");
    await pressCommand(app, "app.quit");
    expect((await app.exited).exitCode).toBe(0);
  }, 60_000);

  it("the trash view shows each host's trash: a restore and a delete for good are carried out there", async () => {
    if (!needsSshd()) return;
    const trash = join(beta.home, ".local", "share", "Trash");
    const name = paths.betaGone.split("/").at(-1)!;
    /** Deletes beta's session of this title from the list, to beta's trash. */
    const deleteOnBeta = async (app: RunningApp, title: string) => {
      await selectRow(app, title);
      await pressCommand(app, "session.delete");
      await app.waitFor((s) => s.includes("Move to the trash on beta"));
      await pressCommand(app, "confirm.yes");
      await app.waitFor((s) => s.includes("Moved 1 session to the trash") && !s.includes(title));
    };
    const deleteGone = async (app: RunningApp) => {
      await deleteOnBeta(app, "beta folder gone");
      expect(existsSync(join(trash, "files", name))).toBe(true);
    };
    let app = browser();
    await app.waitFor((s) => allListed(s) && s.includes("beta folder gone"), 20_000);
    await deleteGone(app);
    await pressCommand(app, "app.quit");
    expect((await app.exited).exitCode).toBe(0);

    // Another run (no undo of its own): the trash view lists beta's trash, labelled, from its log there.
    app = browser();
    await app.waitFor(allListed, 20_000);
    await pressCommand(app, "trash.open");
    let screen = await app.waitFor((s) => s.includes("beta folder gone"), 15_000);
    const row = screen.split("\n").find((l) => l.includes("beta folder gone"))!;
    expect(row).toMatch(/beta:\S*\/removed-project /);
    expect(screen).toContain(`now   beta:${trash}/files/`);
    await pressCommand(app, "trash.restore");
    await app.waitFor((s) => s.includes("Restored 1 session"), 15_000);
    expect(existsSync(paths.betaGone)).toBe(true);
    expect(existsSync(join(trash, "files", name))).toBe(false);
    await pressCommand(app, "trash.close");
    await app.waitFor((s) => s.includes("beta folder gone"), 15_000);

    // Deleted again, then for good from the view: gone from beta's trash, nothing here touched.
    await deleteGone(app);
    await pressCommand(app, "trash.open");
    await app.waitFor((s) => s.includes("beta folder gone"), 15_000);
    await pressCommand(app, "trash.purge");
    await app.waitFor("for good?");
    await pressCommand(app, "confirm.yes");
    await app.waitFor("This cannot be undone.");
    await pressCommand(app, "confirm.permanent");
    screen = await app.waitFor((s) => s.includes('Deleted "beta folder gone" for good'), 15_000);
    expect(existsSync(join(trash, "files", name))).toBe(false);
    expect(existsSync(join(trash, "info", `${name}.trashinfo`))).toBe(false);
    expect(existsSync(paths.betaGone)).toBe(false);
    expect(existsSync(join(env.XDG_DATA_HOME!, "Trash"))).toBe(false);
    await pressCommand(app, "trash.close");

    // Left in beta's trash for the last test (a host that is down has its trash not shown).
    await deleteOnBeta(app, "beta spare");
    await pressCommand(app, "app.quit");
    expect((await app.exited).exitCode).toBe(0);
  }, 120_000);

  it("quitting before a host has answered ends the program at once: its ssh is stopped, not waited for", async () => {
    if (!needsSshd()) return;
    const app = start(["--session-dir", localStore, "--host", "slow"], {
      cwd: localCwd,
      env: { ...env, PI_SESSIONS_REMOTE_TIMEOUT: "60" },
    });
    await app.waitFor((s) => s.includes("local notes") && s.includes("slow …"), 15_000);
    await pressCommand(app, "app.quit");
    // Without the stop, ssh (and so the program) waited for the host's hello: up to its 60 s.
    expect((await app.exited).exitCode).toBe(0);
  }, 25_000);

  it("--print prints HOST:PATH for a host's session", async () => {
    if (!needsSshd()) return;
    const out = join(makeTmpDir(), "picked.txt");
    const app = startShell(
      `"$NODE" "$PI_SESSIONS_CLI" --session-dir ${shQuote(localStore)} --host alpha --host beta --print > ${shQuote(out)}`,
      { cwd: localCwd, env },
    );
    shells.push(app);
    await app.waitFor((s) => s.includes("beta remote notes") && /beta ✓/.test(s), 20_000);
    await app.type("beta remote");
    await app.waitFor((s) => selectedLine(s).includes("beta remote notes"));
    await pressCommand(app, "search.submit");
    expect((await app.exited).exitCode).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(`beta:${paths.beta}\n`);
  }, 60_000);

  it("a host stopped mid-run turns unreachable without freezing a key; a relaunch shows its kept rows, read-only", async () => {
    if (!needsSshd()) return;
    const app = browser();
    await app.waitFor(allListed, 20_000);
    await selectRow(app, "beta remote notes");
    await (sshd as Sshd).kill();
    await app.waitFor((s) => /alpha unreachable/.test(s) && /beta unreachable/.test(s), 20_000);
    // Keys still act at once, and the host's rows are still there, read-only.
    await pressCommand(app, "list.up");
    await app.waitFor(
      (s) => selectedLine(s).includes("alpha remote notes") || selectedLine(s).includes("named over ssh"),
    );
    await pressCommand(app, "session.rename");
    await app.waitFor((s) => /alpha is unreachable: its kept rows are read-only/.test(s));
    await pressCommand(app, "app.quit");
    expect((await app.exited).exitCode).toBe(0);

    // Launched again with the hosts down: their kept rows at once, marked with their age, then unreachable.
    const again = browser();
    const first = await again.waitFor((s) => s.includes("beta remote notes") && s.includes("local notes"), 5_000);
    expect(first).toMatch(/beta (kept <1m|kept \d+m|unreachable)/);
    await again.waitFor((s) => /beta unreachable/.test(s), 20_000);
    await selectRow(again, "beta remote notes");
    await pressCommand(again, "session.delete");
    await again.waitFor((s) => /beta is unreachable: its kept rows are read-only/.test(s));
    // Its trash (one session in it) is not shown: only what answers is.
    await pressCommand(again, "trash.open");
    await again.waitFor("No session of this store is in the trash.");
    await new Promise((r) => setTimeout(r, 500));
    expect(again.screen()).not.toContain("beta spare");
    await pressCommand(again, "trash.close");
    await pressCommand(again, "app.quit");
    expect((await again.exited).exitCode).toBe(0);
  }, 90_000);
});
