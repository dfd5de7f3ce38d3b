import { describe, expect, it } from "vitest";
import { firstScreenMinRows } from "./firstScreen.js";

describe("firstScreenMinRows", () => {
  it("asks 5,000 sessions of the record of the newest rows and 20,000 of the whole snapshot", () => {
    // Below 5,000 the whole list is drawn about as soon, and a key typed at once acts on it.
    expect(firstScreenMinRows({})).toEqual({ record: 5_000, whole: 20_000 });
  });

  it("takes PI_SESSIONS_FIRST_SCREEN_MIN_ROWS for both, a whole number only", () => {
    expect(firstScreenMinRows({ PI_SESSIONS_FIRST_SCREEN_MIN_ROWS: "0" })).toEqual({ record: 0, whole: 0 });
    expect(firstScreenMinRows({ PI_SESSIONS_FIRST_SCREEN_MIN_ROWS: "7" })).toEqual({ record: 7, whole: 7 });
    for (const bad of ["", "-1", "1.5", "many"])
      expect(firstScreenMinRows({ PI_SESSIONS_FIRST_SCREEN_MIN_ROWS: bad })).toEqual({ record: 5_000, whole: 20_000 });
  });
});
