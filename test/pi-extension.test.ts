import { discoverAndLoadExtensions } from "@mariozechner/pi-coding-agent";
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runSessionsCommand, storeDirOf, type SessionsContext, type SessionsDeps } from "../src/pi/sessions-command.js";

const EXTENSION = join(import.meta.dirname, "..", "dist", "src", "pi", "extension.js");
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function recorder(sessionFile: string, sessionDir: string) {
  const calls: string[] = [];
  const switched: string[] = [];
  const ctx: SessionsContext = {
    hasUI: true,
    cwd: "/tmp",
    sessionManager: { getSessionFile: () => sessionFile, getSessionDir: () => sessionDir },
    ui: {
      async custom<T>(factory: Parameters<SessionsContext["ui"]["custom"]>[0]) {
        let result: T | undefined;
        const tui = {
          stop: () => calls.push("tui.stop"),
          start: () => calls.push("tui.start"),
          requestRender: (f?: boolean) => calls.push(`tui.requestRender(${f})`),
        };
        factory(tui, {}, {}, (r) => {
          calls.push("done");
          result = r as T;
        });
        return result as T;
      },
      notify: (m) => calls.push(`notify:${m}`),
    },
    switchSession: async (p) => {
      calls.push("switchSession");
      switched.push(p);
      return { cancelled: false };
    },
  };
  return { ctx, calls, switched };
}

function deps(choose: (resultFile: string, args: string[]) => void): SessionsDeps & { args: string[][] } {
  const dir = mkdtempSync(join(tmpdir(), "pi-sessions-ext-"));
  dirs.push(dir);
  const args: string[][] = [];
  return {
    args,
    resultFile: () => join(dir, "choice.txt"),
    clearScreen: () => undefined,
    runBrowser: (a) => {
      args.push(a);
      choose(a[a.indexOf("--result-file") + 1], a);
      return 0;
    },
  };
}

describe("the pi extension", () => {
  it("loads in pi's own extension loader and registers /sessions", async () => {
    expect(existsSync(EXTENSION)).toBe(true);
    const empty = mkdtempSync(join(tmpdir(), "pi-sessions-agent-"));
    dirs.push(empty);
    const { extensions, errors } = await discoverAndLoadExtensions([EXTENSION], empty, empty);
    expect(errors).toEqual([]);
    expect(extensions).toHaveLength(1);
    const cmd = extensions[0].commands.get("sessions");
    expect(cmd).toBeDefined();
    expect(cmd!.description).toMatch(/sessions/i);
  });

  it("hands the terminal over in order and switches to the chosen session", async () => {
    const { ctx, calls, switched } = recorder("/store/--p--/open.jsonl", "/store/--p--");
    const d = deps((file) => writeFileSync(file, "/store/--p--/chosen.jsonl\n"));
    const chosen = await runSessionsCommand("auth bug", ctx, d);
    expect(chosen).toBe("/store/--p--/chosen.jsonl");
    expect(calls).toEqual(["tui.stop", "tui.start", "tui.requestRender(true)", "done", "switchSession"]);
    expect(switched).toEqual(["/store/--p--/chosen.jsonl"]);
    expect(d.args[0]).toEqual([
      "--session-dir",
      "/store",
      "--result-file",
      d.resultFile(),
      "--current",
      "/store/--p--/open.jsonl",
      "--query",
      "auth bug",
    ]);
    expect(existsSync(d.resultFile())).toBe(false);
  });

  it("does nothing on cancel, or when the open session is picked unchanged", async () => {
    const a = recorder("/s/open.jsonl", "/s");
    await runSessionsCommand(
      "",
      a.ctx,
      deps(() => undefined),
    );
    expect(a.switched).toEqual([]);
    expect(a.calls).toEqual(["tui.stop", "tui.start", "tui.requestRender(true)", "done"]);

    const dir = mkdtempSync(join(tmpdir(), "pi-sessions-ext-"));
    dirs.push(dir);
    const open = join(dir, "open.jsonl");
    writeFileSync(open, '{"type":"session","id":"x"}\n');
    const b = recorder(open, dir);
    await runSessionsCommand(
      "",
      b.ctx,
      deps((file) => writeFileSync(file, open)),
    );
    expect(b.switched).toEqual([]);
    // …but a resume-at-entry written into the open session reloads it.
    const c = recorder(open, dir);
    await runSessionsCommand(
      "",
      c.ctx,
      deps((file) => {
        appendFileSync(
          open,
          '{"type":"custom","id":"n1","parentId":null,"timestamp":"t","customType":"pi-sessions/navigate"}\n',
        );
        writeFileSync(file, open);
      }),
    );
    expect(c.switched).toEqual([open]);
  });

  it("finds the store from pi's session dir in both layouts", () => {
    expect(storeDirOf("/home/a/.pi/agent/sessions/--home-a-proj--")).toBe("/home/a/.pi/agent/sessions");
    expect(storeDirOf("/data/flat-sessions")).toBe("/data/flat-sessions");
  });
});
