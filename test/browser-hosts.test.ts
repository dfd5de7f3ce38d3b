import { describe, expect, it } from "vitest";
import { makeSummary } from "./helpers/sessions.js";
import { reduce, scanSummaries } from "./helpers/update.js";
import { hostText } from "../components/header/headerText.js";
import { formatRow } from "../components/list/rowFormat.js";
import { deleteLines } from "../components/dialogs/DeleteDialog.js";
import { disabledReason } from "../src/browser/app/disabledReason.js";
import { type AppAction, type AppState, initialState } from "../src/browser/app/appReducer.js";
import type { CommandId } from "../src/browser/keys/commands.js";
import type { HostView } from "../src/browser/list/hosts.js";
import type { ListedSession } from "../src/browser/list/sessions.js";
import { deleteTarget } from "../src/browser/lifecycle/lifecycle.js";

/*
 * Other machines in the browser's list (src/remote brings their rows): scope, order,
 * labels, states and what a host that does not answer refuses.
 */

const CWD = "/home/u/proj";
const cmd = (command: CommandId): AppAction => ({ type: "command", command });

/** A host's session as src/remote lists it: under its copy's path, with its host and its path there. */
function remote(host: string, over: Partial<ListedSession> = {}): ListedSession {
  const s = makeSummary({ cwd: "/srv/there", ...over });
  return { ...s, path: `/cache/remote/${host}/${s.id}.jsonl`, host, remotePath: `/home/me/.pi/${s.id}.jsonl` };
}

const live = (name: string): HostView => ({ name, state: "live", at: Date.now() });

function withHosts(): { s: AppState; here: ListedSession; a: ListedSession; b: ListedSession } {
  const here = makeSummary({ cwd: CWD, modified: new Date("2025-01-01T00:00:00Z") });
  // Newer than this machine's: the order is by machine first all the same.
  const a = remote("alpha", { modified: new Date("2025-03-01T00:00:00Z") });
  const b = remote("beta", { modified: new Date("2025-02-01T00:00:00Z") });
  const init = initialState({ launchCwd: CWD, scope: "hosts", hosts: [live("alpha"), live("beta")] });
  const s = reduce(
    init,
    scanSummaries([here]),
    { type: "hosts.update", updates: [{ host: live("beta"), sessions: [b] }] },
    { type: "hosts.update", updates: [{ host: live("alpha"), sessions: [a] }] },
  );
  return { s, here, a, b };
}

describe("hosts in the list", () => {
  it("every host: this machine's rows first, then each host's in the order the hosts were given", () => {
    const { s, here, a, b } = withHosts();
    expect(s.scope).toBe("hosts");
    expect(s.rows.map((r) => r.session.path)).toEqual([here.path, a.path, b.path]);
  });

  it("Tab goes this folder → all folders → every host; a host's rows only in the last", () => {
    let { s } = withHosts();
    s = reduce(s, cmd("scope.toggle"));
    expect([s.scope, s.rows.length]).toEqual(["cwd", 1]);
    s = reduce(s, cmd("scope.toggle"));
    expect([s.scope, s.rows.length]).toEqual(["all", 1]);
    s = reduce(s, cmd("scope.toggle"));
    expect([s.scope, s.rows.length]).toEqual(["hosts", 3]);
    // Without hosts, Tab has its two scopes as before.
    let plain = initialState({ launchCwd: CWD });
    plain = reduce(plain, cmd("scope.toggle"), cmd("scope.toggle"));
    expect(plain.scope).toBe("cwd");
  });

  it("a host's new answer replaces its rows, and only its", () => {
    const { s, here, b } = withHosts();
    const a2 = remote("alpha", { name: "again" });
    const n = reduce(s, { type: "hosts.update", updates: [{ host: live("alpha"), sessions: [a2] }] });
    expect(n.rows.map((r) => r.session.path)).toEqual([here.path, a2.path, b.path]);
    const down = reduce(n, {
      type: "hosts.update",
      updates: [{ host: { name: "alpha", state: "unreachable", at: 1 } }],
    });
    // Unreachable: its rows stay.
    expect(down.rows).toHaveLength(3);
    expect(down.hosts?.find((h) => h.name === "alpha")?.state).toBe("unreachable");
  });

  it("hosts that answered together: one update puts each one's rows in place of its own, and says each one's state", () => {
    const { s, here } = withHosts();
    const a2 = remote("alpha", { name: "again", modified: new Date("2025-03-02T00:00:00Z") });
    const b2 = remote("beta", { name: "and again" });
    const n = reduce(s, {
      type: "hosts.update",
      updates: [
        { host: live("alpha"), sessions: [a2] },
        { host: live("beta"), sessions: [b2] },
        { host: { name: "gamma", state: "unreachable", at: 1 } },
      ],
    });
    expect(n.rows.map((r) => r.session.path)).toEqual([here.path, a2.path, b2.path]);
    expect(n.hosts?.map((h) => `${h.name} ${h.state}`)).toEqual(["alpha live", "beta live", "gamma unreachable"]);
  });

  it("a host that does not answer: its rows are read-only (rename, delete, resume), reading still works", () => {
    const { s } = withHosts();
    const down = reduce(
      s,
      { type: "hosts.update", updates: [{ host: { name: "alpha", state: "unreachable", at: 1 } }] },
      { type: "hosts.update", updates: [{ host: { name: "beta", state: "connecting", at: 1 } }] },
      cmd("list.down"),
    );
    expect(disabledReason(down, "session.rename")).toBe("alpha is unreachable: its kept rows are read-only");
    expect(disabledReason(down, "session.delete")).toMatch(/read-only/);
    expect(disabledReason(down, "session.resume")).toMatch(/read-only/);
    expect(disabledReason(down, "tree.open")).toBeUndefined();
    // A host still connecting: no writes yet, but ssh may reach it for a resume.
    const connecting = reduce(down, cmd("list.down"));
    expect(disabledReason(connecting, "session.rename")).toMatch(/beta has not answered yet/);
    expect(disabledReason(connecting, "session.resume")).toBeUndefined();
    // This machine's row: as always.
    expect(disabledReason(reduce(down, cmd("list.up")), "session.rename")).toBeUndefined();
  });
});

describe("how a host's session is shown", () => {
  it("the folder column says host:folder; without one, the host comes before the title", () => {
    const row = { session: remote("devbox", { firstMessage: "fix it" }), depth: 0, prefix: "" };
    const wide = formatRow(row, { width: 100, selected: false, showCwd: true, now: Date.now() });
    expect(wide).toMatch(/devbox:\/srv\/there\s*$/);
    const narrow = formatRow(row, { width: 60, selected: false, showCwd: false, now: Date.now() });
    expect(narrow).toMatch(/^ {2}devbox: fix it/);
  });

  it("the header: answered, kept with its age, unreachable (escapes in a name removed)", () => {
    const now = Date.parse("2025-01-01T12:00:00Z");
    expect(hostText({ name: "a", state: "live" }, false, now)).toBe("a ✓");
    expect(hostText({ name: "a", state: "live" }, true, now)).toBe("");
    expect(hostText({ name: "a", state: "connecting", at: now - 5 * 60_000 }, true, now)).toBe("a kept 5m");
    expect(hostText({ name: "a", state: "connecting", at: now - 5_000 }, true, now)).toBe("a kept <1m");
    expect(hostText({ name: "a", state: "connecting" }, true, now)).toBe("a …");
    expect(hostText({ name: "a\x1b[2J", state: "unreachable" }, true, now)).toBe("a unreachable");
  });

  it("the delete question names the host's path and its trash", () => {
    const x = remote("devbox");
    const t = deleteTarget({ ownWrites: new Map() }, x);
    expect(t).toMatchObject({ host: "devbox", where: `devbox:${x.remotePath}`, path: x.path });
    const lines = deleteLines({ step: "confirm", targets: [t], bulk: false, trashDir: "/home/me/.Trash", now: 0 }).map(
      (l) => l.text,
    );
    expect(lines).toContain(`devbox:${x.remotePath}`);
    expect(lines).toContain("Move to the trash on devbox");
    expect(lines.join("\n")).not.toContain("/home/me/.Trash");
  });
});
