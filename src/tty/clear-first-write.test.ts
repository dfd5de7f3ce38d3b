import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { clearingFirstWrite } from "./clear-first-write.js";
import { CLEAR_SCREEN, SYNC_START } from "./terminal.js";

function sink() {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream & PassThrough;
  Object.assign(stream, { columns: 80, rows: 24, isTTY: true });
  const written: string[] = [];
  stream.on("data", (d: Buffer) => written.push(d.toString()));
  return { stream, written };
}

describe("clearingFirstWrite", () => {
  it("clears the screen inside the first write's synchronized update, and only the first", async () => {
    const { stream, written } = sink();
    const out = clearingFirstWrite(stream);
    out.write(`${SYNC_START}frame one`);
    out.write(`${SYNC_START}frame two`);
    await new Promise((r) => setImmediate(r));
    expect(written).toEqual([`${SYNC_START}${CLEAR_SCREEN}frame one`, `${SYNC_START}frame two`]);
  });

  it("clears before a first write that is not synchronized, bytes too", async () => {
    const { stream, written } = sink();
    const out = clearingFirstWrite(stream);
    out.write(Buffer.from("héllo"));
    await new Promise((r) => setImmediate(r));
    expect(written.join("")).toBe(`${CLEAR_SCREEN}héllo`);
  });

  it("is the stream in every other way: its size, its events", () => {
    const { stream } = sink();
    const out = clearingFirstWrite(stream);
    expect(out.columns).toBe(80);
    expect(out.isTTY).toBe(true);
    let resized = 0;
    const onResize = () => resized++;
    out.on("resize", onResize);
    stream.emit("resize");
    out.off("resize", onResize);
    stream.emit("resize");
    expect(resized).toBe(1);
  });
});
