import { Text } from "ink";
import { act } from "react";
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, renderApp, renderInk, settle, typeText } from "../../test/helpers/ink.js";
import { makeSessions } from "../../test/helpers/sessions.js";
import type { AppAction, AppState } from "../../src/browser/app/appReducer.js";
import { useRowsDue } from "./useRowsDue.js";

afterEach(cleanupInk);

const CWD = "/home/u/proj";

describe("useRowsDue: rows put off for keys read together never stay so once no key waits", () => {
  it("derives them in the App when the keys read are all handed on, the last a key with `more` (nothing came of what was behind it)", async () => {
    let queued = true;
    const { r } = await renderApp({
      sessions: makeSessions(12, { cwd: CWD }),
      deps: { keysQueued: () => queued },
    });
    await typeText(r, "/");
    // Every key with another behind it: the query is typed, the rows put off.
    await typeText(r, "session 7");
    expect(r.lastFrame()).toContain("session 7");
    expect(r.lastFrame()).toContain("session 11");
    // The last thing read came to no action (a right click, say): KeyStream says idle.
    queued = false;
    await act(async () => void r.stdin.emit("idle"));
    await settle();
    expect(r.lastFrame()).toContain("session 7");
    expect(r.lastFrame()).not.toContain("session 11");
  });

  function Probe(p: { stdin: EventEmitter; putOff: boolean; queued: () => boolean; seen: AppAction[] }) {
    useRowsDue(
      p.stdin as unknown as NodeJS.ReadableStream,
      p.putOff,
      () => ({ rowsPutOff: p.putOff }) as AppState,
      (a) => void p.seen.push(a),
      p.queued,
    );
    return <Text>x</Text>;
  }

  it("asks for them after a frame with rows put off and no key queued, not while one is", async () => {
    const stdin = new EventEmitter();
    const seen: AppAction[] = [];
    let queued = true;
    const r = await renderInk(<Probe stdin={stdin} putOff={true} queued={() => queued} seen={seen} />);
    expect(seen).toEqual([]);
    queued = false;
    await act(async () => void stdin.emit("idle"));
    expect(seen).toEqual([{ type: "rows.due" }]);
    // Not put off: nothing asked.
    seen.length = 0;
    r.rerender(<Probe stdin={stdin} putOff={false} queued={() => false} seen={seen} />);
    await act(async () => void stdin.emit("idle"));
    expect(seen).toEqual([]);
    // Put off again with no key queued: asked at the frame.
    await act(async () => r.rerender(<Probe stdin={stdin} putOff={true} queued={() => false} seen={seen} />));
    expect(seen).toEqual([{ type: "rows.due" }]);
  });
});
