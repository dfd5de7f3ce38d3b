import { describe, expect, it } from "vitest";
import { afterIdle } from "./idle-wait.js";

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // the thread at work (decoding, say)
  }
};

describe("afterIdle", () => {
  it("counts only the time the thread waited, not the time it worked", async () => {
    let at = 0;
    const t0 = performance.now();
    afterIdle(60, () => (at = performance.now() - t0));
    busy(100);
    // The timer is due, but the thread has waited for nothing yet.
    await new Promise((r) => setTimeout(r, 5));
    expect(at).toBe(0);
    await new Promise((r) => setTimeout(r, 120));
    expect(at).toBeGreaterThanOrEqual(150);
  });

  it("is a plain timer on an idle thread, and can be cancelled", async () => {
    let fired = 0;
    afterIdle(20, () => fired++);
    const cancel = afterIdle(20, () => fired++);
    cancel();
    await new Promise((r) => setTimeout(r, 60));
    expect(fired).toBe(1);
  });
});
