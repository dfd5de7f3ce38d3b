import { describe, expect, it } from "vitest";
import { makeSessions } from "../../../test/helpers/sessions.js";
import { reduce, scanSummaries } from "../../../test/helpers/update.js";
import { carriedFrom, comesBack, piExitNotice, startAfterPi } from "./afterPi.js";
import { initialState, selectedSession } from "./appReducer.js";
import type { Outcome } from "./effects.js";

const CWD = "/home/u/proj";
const ran = (code: number, signal?: string) => ({ code, started: true, ...(signal ? { signal } : {}) });
const resume: Outcome = { kind: "resume", path: "/store/s.jsonl", cwd: CWD };

describe("comesBack: whether the browser starts again once pi has exited", () => {
  it('only with "return", after a pi that ran for a resume, a fork or a new session', () => {
    expect(comesBack("return", false, resume, ran(0))).toBe(true);
    expect(comesBack("return", false, { ...resume, note: "copied" }, ran(3))).toBe(true);
    expect(comesBack("return", false, { kind: "new", cwd: CWD }, ran(0))).toBe(true);
    expect(comesBack("exit", false, resume, ran(0))).toBe(false);
  });
  it("never when picking (--print, the pi extension), nor after a quit or a print", () => {
    expect(comesBack("return", true, resume, ran(0))).toBe(false);
    expect(comesBack("return", false, { kind: "quit" }, ran(0))).toBe(false);
    expect(comesBack("return", false, { kind: "print", path: "/x" }, ran(0))).toBe(false);
  });
  it("not when pi could not be started: the program ends with 127 as before", () => {
    expect(comesBack("return", false, resume, { code: 127, started: false })).toBe(false);
  });
  it("not after a hang-up (the terminal is gone); after any other end of pi, yes", () => {
    expect(comesBack("return", false, resume, ran(129, "SIGHUP"))).toBe(false);
    expect(comesBack("return", false, resume, ran(143, "SIGTERM"))).toBe(true);
  });
});

describe("piExitNotice", () => {
  it("says a non-zero status or a signal, nothing for 0", () => {
    expect(piExitNotice(ran(0))).toBeUndefined();
    expect(piExitNotice(ran(3))).toBe("pi exited with status 3");
    expect(piExitNotice(ran(143, "SIGTERM"))).toBe("pi was ended by SIGTERM (status 143)");
  });
});

describe("carriedFrom and startAfterPi: the browser back where the user left it", () => {
  const sessions = makeSessions(5, { cwd: CWD });
  const left = reduce(
    initialState({ launchCwd: CWD, scope: "all", sort: "name", query: "session", searchToolOutput: true }),
    scanSummaries(sessions),
  );
  const shrunk = { ...left, previewShare: 0 };

  it("keeps scope, sort, search, tool-output search and the preview's size; selects the session resumed", () => {
    const c = carriedFrom(shrunk, { kind: "resume", path: sessions[3].path, cwd: CWD });
    expect(c).toEqual({
      scope: "all",
      sort: "name",
      query: "session",
      searchToolOutput: true,
      previewShare: 0,
      select: sessions[3].path,
    });
  });

  it("selects the session that was selected after a new session (its path is not known)", () => {
    expect(carriedFrom(left, { kind: "new", cwd: CWD }).select).toBe(selectedSession(left)?.path);
  });

  it("starts from them, with pi's status in the status line, and no config warning again", () => {
    const c = carriedFrom(shrunk, { kind: "resume", path: sessions[3].path, cwd: CWD });
    const start = startAfterPi({ sort: "recent", notice: "config: bad", openInPi: "/open.jsonl" }, c, ran(2));
    // What carriedFrom kept (checked above), with the launch's own and pi's status.
    expect(start).toEqual({ ...c, openInPi: "/open.jsonl", notice: "pi exited with status 2" });
    // The state it starts from, once the scan lists the sessions again.
    const back = reduce(initialState({ launchCwd: CWD, ...start }), scanSummaries(sessions));
    expect(back).toMatchObject({ scope: "all", sort: "name", previewShare: 0, status: { tone: "error" } });
    expect(back.search.value).toBe("session");
    expect(back.fullText.includeTools).toBe(true);
    expect(selectedSession(back)?.path).toBe(sessions[3].path);
  });

  it("a clean exit leaves the status line empty, and an empty search is no search", () => {
    const c = carriedFrom(initialState({ launchCwd: CWD }), resume);
    const start = startAfterPi({}, c, ran(0));
    expect(start.notice).toBeUndefined();
    expect(start.query).toBeUndefined();
    expect(initialState({ launchCwd: CWD, ...start }).status).toBeUndefined();
  });
});
