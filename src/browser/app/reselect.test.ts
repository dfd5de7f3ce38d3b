import { describe, expect, it } from "vitest";
import { K } from "../../../test/helpers/keys.js";
import { makeSessions } from "../../../test/helpers/sessions.js";
import { reduce, scanDone, scanSummaries } from "../../../test/helpers/update.js";
import { initialState, selectedSession } from "./appReducer.js";
import { seedScan } from "./scanSeed.js";

const CWD = "/home/u/proj";

describe("reselect: the cursor back on the session resumed, once it is listed", () => {
  const sessions = makeSessions(6, { cwd: CWD });
  const wanted = sessions[4].path;

  it("waits for the scan to list the session, then selects it (the top row until then)", () => {
    let s = reduce(initialState({ launchCwd: CWD, select: wanted }), scanSummaries(sessions.slice(0, 3)));
    expect(selectedSession(s)?.path).toBe(sessions[0].path);
    expect(s.reselect).toBe(wanted);
    s = reduce(s, scanSummaries(sessions.slice(3)), scanDone());
    expect(selectedSession(s)?.path).toBe(wanted);
    expect(s.cursor).toBe(4);
    expect(s.reselect).toBeUndefined();
    // Chosen, so newer rows arriving later do not carry the cursor away.
    expect(s.userSelected).toBe(true);
  });

  it("applies to the rows seeded before the first frame too", () => {
    const s = seedScan(initialState({ launchCwd: CWD, select: wanted }), [{ kind: "summaries", items: sessions }]);
    expect(selectedSession(s)?.path).toBe(wanted);
  });

  it("is dropped by anything the user does first: the cursor never jumps from under them", () => {
    const [input, key] = K.char("j");
    let s = reduce(initialState({ launchCwd: CWD, select: wanted }), scanSummaries(sessions.slice(0, 3)), {
      type: "key",
      input,
      key,
    });
    expect(s.reselect).toBeUndefined();
    s = reduce(s, scanSummaries(sessions.slice(3)));
    expect(selectedSession(s)?.path).toBe(sessions[1].path);
  });

  it("a plain start wants nothing: the newest row stays selected as the rows arrive", () => {
    const s = reduce(initialState({ launchCwd: CWD }), scanSummaries(sessions.slice(0, 3)));
    expect(s.reselect).toBeUndefined();
    expect(selectedSession(reduce(s, scanSummaries(sessions.slice(3)), scanDone()))?.path).toBe(sessions[0].path);
  });
});
