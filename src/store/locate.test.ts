import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkStore, locateStore, StoreError, storeExists } from "./locate.js";

const home = "/home/u";
const cwd = "/proj/here";

describe("locateStore precedence", () => {
  const env = { PI_CODING_AGENT_SESSION_DIR: "/env/sessions", PI_CODING_AGENT_DIR: "/env/agent" };

  it("--session-dir wins over everything", () => {
    expect(locateStore({ flag: "/flag", env, home, cwd })).toEqual({ dir: "/flag", source: "--session-dir" });
  });
  it("then $PI_CODING_AGENT_SESSION_DIR", () => {
    expect(locateStore({ env, home, cwd })).toEqual({ dir: "/env/sessions", source: "PI_CODING_AGENT_SESSION_DIR" });
  });
  it("then $PI_CODING_AGENT_DIR/sessions", () => {
    expect(locateStore({ env: { PI_CODING_AGENT_DIR: "/env/agent" }, home, cwd })).toEqual({
      dir: "/env/agent/sessions",
      source: "PI_CODING_AGENT_DIR",
    });
  });
  it("then ~/.pi/agent/sessions", () => {
    expect(locateStore({ env: {}, home, cwd })).toEqual({ dir: "/home/u/.pi/agent/sessions", source: "default" });
  });
  it("empty variables count as unset", () => {
    expect(locateStore({ env: { PI_CODING_AGENT_SESSION_DIR: "", PI_CODING_AGENT_DIR: "" }, home, cwd }).source).toBe(
      "default",
    );
  });
  it("relative paths resolve against cwd, ~ against home", () => {
    expect(locateStore({ flag: "rel/s", env: {}, home, cwd }).dir).toBe("/proj/here/rel/s");
    expect(locateStore({ flag: "~/s", env: {}, home, cwd }).dir).toBe("/home/u/s");
    expect(locateStore({ env: { PI_CODING_AGENT_DIR: "~" }, home, cwd }).dir).toBe("/home/u/sessions");
  });
});

describe("checkStore never creates anything", () => {
  const tmp = mkdtempSync(join(tmpdir(), "locate-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("a missing store: one-line StoreError naming the path, the source and how to point elsewhere", () => {
    const dir = join(tmp, "missing", "sessions");
    let err: unknown;
    try {
      checkStore({ dir, source: "PI_CODING_AGENT_DIR" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreError);
    const msg = (err as Error).message;
    expect(msg).toContain(dir);
    expect(msg).toContain("PI_CODING_AGENT_DIR");
    expect(msg).toContain("--session-dir");
    expect(msg).not.toContain("\n");
    expect(existsSync(join(tmp, "missing"))).toBe(false);
    expect(storeExists({ dir, source: "default" })).toBe(false);
    expect(existsSync(join(tmp, "missing"))).toBe(false);
  });

  it("a file where the folder should be", () => {
    const f = join(tmp, "file");
    writeFileSync(f, "");
    expect(() => checkStore({ dir: f, source: "--session-dir" })).toThrow(/is not a folder/);
  });

  it("an existing folder passes", () => {
    expect(() => checkStore({ dir: tmp, source: "--session-dir" })).not.toThrow();
    expect(storeExists({ dir: tmp, source: "default" })).toBe(true);
  });
});

describe("locateStore: pi 1.5.2's sessionDir setting and path forms", () => {
  const tmp = mkdtempSync(join(tmpdir(), "locate-settings-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const agentDir = join(tmp, "agent");
  const project = join(tmp, "proj");
  const setGlobal = (v: unknown) => (
    mkdirSync(agentDir, { recursive: true }),
    writeFileSync(join(agentDir, "settings.json"), typeof v === "string" ? v : JSON.stringify(v))
  );
  const setProject = (v: unknown) => (
    mkdirSync(join(project, ".pi"), { recursive: true }),
    writeFileSync(join(project, ".pi", "settings.json"), typeof v === "string" ? v : JSON.stringify(v))
  );
  const at = () => locateStore({ env: { PI_CODING_AGENT_DIR: agentDir }, home: "/home/u", cwd: project });

  it("the agent folder's settings name a custom folder; the project's win; env and flag win over both", () => {
    setGlobal({ sessionDir: "/g/sessions" });
    setProject({});
    expect(at()).toEqual({ dir: "/g/sessions", source: "global settings" });
    setProject({ sessionDir: "rel/s" });
    expect(at()).toEqual({ dir: join(project, "rel/s"), source: "project settings" });
    expect(
      locateStore({ env: { PI_CODING_AGENT_DIR: agentDir, PI_CODING_AGENT_SESSION_DIR: "/e" }, cwd: project }).dir,
    ).toBe("/e");
    expect(locateStore({ flag: "/f", env: { PI_CODING_AGENT_DIR: agentDir }, cwd: project }).dir).toBe("/f");
  });
  it("a project null clears the global value; ~ and file:// URLs are accepted", () => {
    setGlobal({ sessionDir: "/g/sessions" });
    setProject({ sessionDir: null });
    expect(at()).toEqual({ dir: join(agentDir, "sessions"), source: "PI_CODING_AGENT_DIR" });
    setProject({ sessionDir: "~/s" });
    expect(at().dir).toBe("/home/u/s");
    setProject({ sessionDir: "file:///srv/my%20sessions" });
    expect(at().dir).toBe("/srv/my sessions");
    expect(locateStore({ flag: "file:///x/y", env: {}, cwd }).dir).toBe("/x/y");
    expect(locateStore({ env: { PI_CODING_AGENT_SESSION_DIR: "file:///x/z" }, cwd }).dir).toBe("/x/z");
  });
  it("a settings file that is not JSON counts as none, with a warning; a non-path value is ignored, with a warning", () => {
    setGlobal("{ nope");
    setProject({});
    const l = at();
    expect(l.source).toBe("PI_CODING_AGENT_DIR");
    expect(l.warnings?.[0]).toMatch(/settings.json is not valid JSON/);
    setGlobal({ sessionDir: 42 });
    expect(at().warnings).toEqual(["the sessionDir setting is not a path (42); it is ignored"]);
  });
});
