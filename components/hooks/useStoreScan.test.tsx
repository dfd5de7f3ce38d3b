import { Text } from "ink";
import { act, useCallback, useReducer } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, manualScan, renderInk, settle } from "../../test/helpers/ink.js";
import { makeProbe, makeSummary } from "../../test/helpers/sessions.js";
import type { ScanFn } from "./useStoreScan.js";
import type { AppAction } from "../../src/browser/app/appReducer.js";
import { useStoreScan } from "./useStoreScan.js";

afterEach(cleanupInk);

function Harness({ scan, log }: { scan: ScanFn; log: AppAction[] }) {
  const [n, bump] = useReducer((c: number) => c + 1, 0);
  // Logged where dispatched: React may run a reducer more than once for one action.
  const dispatch = useCallback(
    (a: AppAction) => {
      log.push(a);
      bump();
    },
    [log],
  );
  // A throttle long enough that a loaded machine never lets the timer fire inside one act().
  useStoreScan("/store", scan, dispatch, 400);
  return <Text>{n}</Text>;
}

describe("useStoreScan", () => {
  it("sends the first batch at once and coalesces the rest", async () => {
    const m = manualScan();
    const log: AppAction[] = [];
    await renderInk(<Harness scan={m.scan} log={log} />);
    const h = m.handlers();
    await act(async () => {
      h.onDiscovered?.(4);
      h.onProbes?.([makeProbe()]);
      h.onProbes?.([makeProbe()]);
      h.onSummaries?.([makeSummary()]);
      h.onDiagnostic?.({ path: "/x", kind: "empty", reason: "empty" });
    });
    expect(log.map((a) => a.type)).toEqual(["scan.discovered", "scan.batch"]);
    await settle(450);
    expect(log).toHaveLength(3);
    const second = log[2] as Extract<AppAction, { type: "scan.batch" }>;
    expect([second.probes?.length, second.summaries?.length, second.diagnostics?.length]).toEqual([1, 1, 1]);
    const final = [makeSummary()];
    await act(async () => m.finish(final));
    await settle(10);
    expect(log.slice(3).map((a) => a.type)).toEqual(["scan.batch", "scan.done"]);
    expect((log[3] as Extract<AppAction, { type: "scan.batch" }>).summaries).toEqual(final);
  });
  it("reports a failed scan", async () => {
    const log: AppAction[] = [];
    const scan: ScanFn = async () => {
      throw new Error("ENOENT: no store");
    };
    await renderInk(<Harness scan={scan} log={log} />);
    await settle(10);
    expect(log.at(-1)).toEqual({ type: "scan.done", error: "ENOENT: no store" });
  });
  it("aborts the scan on unmount", async () => {
    let signal: AbortSignal | undefined;
    const scan: ScanFn = (_d, _h, o) => {
      signal = o?.signal;
      return new Promise(() => {});
    };
    const r = await renderInk(<Harness scan={scan} log={[]} />);
    await act(async () => r.unmount());
    expect(signal?.aborted).toBe(true);
  });
});
