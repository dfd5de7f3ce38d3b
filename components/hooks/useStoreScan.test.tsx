import { Text } from "ink";
import { act, useCallback, useReducer } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, manualScan, renderInk, settle } from "../../test/helpers/ink.js";
import { makeProbe, makeSummary } from "../../test/helpers/sessions.js";
import type { ScanFn } from "./useStoreScan.js";
import type { AppAction } from "../../src/browser/app/appReducer.js";
import { useStoreScan } from "./useStoreScan.js";
import { scanDone } from "../../test/helpers/update.js";

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
    // One action type, the scan's events in order: the first one at once, the rest coalesced.
    const kinds = (a: AppAction) => (a.type === "scan" ? a.events.map((e) => e.kind) : [a.type]);
    expect(log.map(kinds)).toEqual([["discovered"]]);
    await settle(450);
    expect(log.map(kinds)).toEqual([["discovered"], ["probes", "probes", "summaries", "diagnostic"]]);
    const final = [makeSummary()];
    await act(async () => m.finish(final));
    await settle(10);
    expect(kinds(log[2])).toEqual(["summaries", "complete"]);
    const last = log[2] as Extract<AppAction, { type: "scan" }>;
    expect(last.events[0]).toEqual({ kind: "summaries", items: final });
  });
  it("reports a failed scan", async () => {
    const log: AppAction[] = [];
    const scan: ScanFn = async () => {
      throw new Error("ENOENT: no store");
    };
    await renderInk(<Harness scan={scan} log={log} />);
    await settle(10);
    expect(log.at(-1)).toEqual(scanDone("ENOENT: no store"));
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
