import { describe, expect, it } from "vitest";
import { key } from "../../test/helpers/keys.js";
import { splitBurst } from "./splitBurst.js";

describe("splitBurst", () => {
  it("splits a burst of typed keys into single keys with ink's flags", () => {
    const keys = splitBurst("jG \r", key());
    expect(keys?.map((k) => k.input)).toEqual(["j", "G", " ", "\r"]);
    expect(keys?.[1].key.shift).toBe(true);
    expect(keys?.[3].key.return).toBe(true);
  });
  it("leaves single keys, one emoji, and ctrl/meta combinations alone", () => {
    expect(splitBurst("j", key())).toBeNull();
    expect(splitBurst("🚀", key())).toBeNull();
    expect(splitBurst("ab", key({ meta: true }))).toBeNull();
  });
});
