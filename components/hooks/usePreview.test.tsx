import { Text } from "ink";
import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupInk, renderInk, settle } from "../../test/helpers/ink.js";
import type { PreviewLoader, PreviewState } from "../preview/types.js";
import { PreviewCache, usePreview } from "./usePreview.js";

afterEach(cleanupInk);

function Probe({ path, load, cache }: { path?: string; load: PreviewLoader; cache: PreviewCache }) {
  const st: PreviewState = usePreview(path ? { path, mtimeMs: 1 } : undefined, load, cache, 20);
  return (
    <Text>
      {st.status === "ready" ? `ready ${st.tail.pathLength}` : st.status === "error" ? `error ${st.error}` : st.status}
    </Text>
  );
}

function loader() {
  const calls: string[] = [];
  const load: PreviewLoader = async (p) => {
    calls.push(p);
    if (p === "/bad") throw new Error("EACCES");
    return { entries: [], pathLength: p.length };
  };
  return { calls, load };
}

describe("usePreview", () => {
  it("loads after the selection rests, then serves the cache without a reload", async () => {
    const { calls, load } = loader();
    const cache = new PreviewCache();
    const r = await renderInk(<Probe path="/abc" load={load} cache={cache} />);
    expect(r.lastFrame()).toBe("loading");
    await settle(40);
    expect(r.lastFrame()).toBe("ready 4");
    await act(async () => r.rerender(<Probe path="/x" load={load} cache={cache} />));
    await settle(40);
    await act(async () => r.rerender(<Probe path="/abc" load={load} cache={cache} />));
    expect(r.lastFrame()).toBe("ready 4");
    expect(calls).toEqual(["/abc", "/x"]);
  });
  it("skips sessions passed over quickly", async () => {
    const { calls, load } = loader();
    const cache = new PreviewCache();
    const r = await renderInk(<Probe path="/a" load={load} cache={cache} />);
    for (const p of ["/b", "/c", "/d"]) await act(async () => r.rerender(<Probe path={p} load={load} cache={cache} />));
    await settle(40);
    expect(calls).toEqual(["/d"]);
    expect(r.lastFrame()).toBe("ready 2");
  });
  it("reports errors and idles without a session", async () => {
    const { load } = loader();
    const cache = new PreviewCache();
    const r = await renderInk(<Probe path="/bad" load={load} cache={cache} />);
    await settle(40);
    expect(r.lastFrame()).toBe("error EACCES");
    await act(async () => r.rerender(<Probe load={load} cache={cache} />));
    expect(r.lastFrame()).toBe("idle");
  });
  it("evicts the least recently used entry", () => {
    const c = new PreviewCache(2);
    const v: PreviewState = { status: "loading" };
    c.set("a", v);
    c.set("b", v);
    c.get("a");
    c.set("c", v);
    expect(c.get("b")).toBeUndefined();
    expect(c.get("a")).toBe(v);
  });
});
