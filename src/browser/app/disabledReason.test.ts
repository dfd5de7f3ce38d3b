import { describe, expect, it } from "vitest";
import { K } from "../../../test/helpers/keys.js";
import { reduce, scanDone, scanSummaries } from "../../../test/helpers/update.js";
import { makeSessions } from "../../../test/helpers/sessions.js";
import type { Key } from "../keys/key.js";
import { type AppAction, initialState, modeOf } from "./appReducer.js";
import { disabledReason } from "./disabledReason.js";

const CWD = "/home/u/proj";
const key = ([input, k]: [string, Key]): AppAction => ({ type: "key", input, key: k });

describe("disabledReason", () => {
  it("a session's commands and the moves in a list with no session say why; the list's own commands do not", () => {
    const empty = reduce(initialState({ launchCwd: CWD }), scanDone());
    for (const c of ["session.resume", "tree.open", "reader.open", "session.delete", "copy.path", "menu.open"] as const)
      expect(disabledReason(empty, c), c).toBe("no session in this list");
    for (const c of ["list.down", "list.up", "list.pageDown", "list.bottom"] as const)
      expect(disabledReason(empty, c), c).toBe("no session in this list");
    // The same while a search is typed over the empty list.
    const typing = reduce(empty, key(K.char("/")));
    expect(modeOf(typing)).toBe("search");
    expect(disabledReason(typing, "list.down")).toBe("no session in this list");
    expect(disabledReason(typing, "search.submit")).toBeUndefined();
    for (const c of ["scope.toggle", "search.start", "usage.open", "trash.open", "app.quit"] as const)
      expect(disabledReason(empty, c), c).toBeUndefined();
    const scanning = initialState({ launchCwd: CWD });
    expect(disabledReason(scanning, "session.resume")).toBe("no sessions yet: still scanning");
    expect(disabledReason(scanning, "list.down")).toBe("no sessions yet: still scanning");
    const listed = reduce(initialState({ launchCwd: CWD }), scanSummaries(makeSessions(2, { cwd: CWD })));
    expect(disabledReason(listed, "session.resume")).toBeUndefined();
    expect(disabledReason(listed, "list.down")).toBeUndefined();
  });

  it("pressed anyway, the key says why instead of nothing", () => {
    const empty = reduce(initialState({ launchCwd: CWD }), scanDone());
    const after = reduce(empty, key(K.enter));
    expect(after.status).toEqual({ text: "no session in this list", tone: "note" });
    expect(after.effects).toEqual([]);
    expect(reduce(empty, key(K.char("t"))).status?.text).toBe("no session in this list");
  });

  it("the trash's restore and delete for good have nothing to act on in an empty trash", () => {
    const s = reduce(initialState({ launchCwd: CWD, storeDir: "/s" }), scanDone(), key(K.char("X")), {
      type: "trash.listed",
      records: [],
    });
    expect(disabledReason(s, "trash.restore")).toBe("the trash is empty");
    expect(disabledReason(s, "trash.purge")).toBe("the trash is empty");
    expect(disabledReason(s, "trash.down")).toBe("the trash is empty");
    expect(disabledReason(s, "trash.close")).toBeUndefined();
  });
});
