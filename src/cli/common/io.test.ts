import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { drainedOf } from "./io.js";

/** A stream that finishes each write only when told: a pipe its reader is behind on. */
function slowStream() {
  const pending: Array<() => void> = [];
  const written: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      pending.push(() => {
        written.push(chunk.toString());
        done();
      });
    },
  });
  const finishOne = () => pending.shift()?.();
  return { stream, written, finishOne };
}

describe("drainedOf (stdout done with a buffer)", () => {
  it("is undefined while the stream holds nothing", () => {
    const { stream } = slowStream();
    expect(drainedOf(stream)()).toBeUndefined();
  });

  it("is kept once a small write the stream took in part is written: one below its high-water mark", async () => {
    const { stream, written, finishOne } = slowStream();
    // Smaller than the high-water mark: the stream says nothing of draining after it.
    expect(stream.write(Buffer.from("tail"))).toBe(true);
    const drained = drainedOf(stream)();
    expect(drained).toBeDefined();
    let done = false;
    void drained!.then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    finishOne();
    for (let i = 0; i < 10 && !done; i++) {
      await new Promise((r) => setImmediate(r));
      finishOne(); // the empty write's own
    }
    expect(done).toBe(true);
    expect(written.join("")).toBe("tail");
  });
});
