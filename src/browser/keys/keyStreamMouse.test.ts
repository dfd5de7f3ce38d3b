import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { MouseEvent } from "./sgrMouse.js";
import { KeyStream } from "./keyStream.js";

describe("KeyStream and the mouse", () => {
  it("a mouse report is a 'mouse' event in its place among the keys, never a key", async () => {
    const source = new PassThrough();
    const keys = new KeyStream(source);
    const seen: string[] = [];
    keys.on("data", (k: string) => seen.push(`key ${JSON.stringify(k)}`));
    keys.on("mouse", (m: MouseEvent) => seen.push(`mouse ${m.kind} ${m.x},${m.y}`));
    // One read holding keys and reports, as a terminal sends them in a burst.
    source.write("j\x1b[<0;3;4M\x1b[<0;3;4mk\x1b[<65;1;2M");
    await new Promise((r) => setTimeout(r, 50));
    keys.detach();
    expect(seen).toEqual(['key "j"', "mouse press 2,3", "mouse release 2,3", 'key "k"', "mouse wheel 0,1"]);
  });
});
