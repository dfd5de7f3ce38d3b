// Property-based tests (fast-check): random bytes, random truncation and random parent
// graphs with cycles → no throw, no hang (the test timeout), no lost valid entry.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSessionIndex, NotASessionError } from "../src/store/session-index.js";
import { buildTree, pathToRoot, type TreeNodeLike } from "../src/model/tree.js";
import { scanSessionFile } from "../src/store/scan-file.js";
import { cleanupTmp, makeTmpDir, PI_STORE } from "./helpers/tmp-store.js";

let dir: string;
let n = 0;
const tmpFile = (content: string | Uint8Array) => {
  const p = join(dir, `f${n++}.jsonl`);
  writeFileSync(p, content);
  return p;
};
beforeAll(() => {
  dir = makeTmpDir();
});
afterAll(cleanupTmp);

/** loadSessionIndex, where the only allowed failure is NotASessionError. */
async function loadOrNotASession(path: string) {
  try {
    return await loadSessionIndex(path);
  } catch (err) {
    expect(err).toBeInstanceOf(NotASessionError);
    return null;
  }
}

const VALID = readFileSync(
  join(PI_STORE, "--home-dev-src-my-lib--", "2026-11-21T06-04-01-386Z_01a1fcb4-5dea-763e-ae9c-4a7fdc202c9f.jsonl"),
);
const HEADER =
  '{"type":"session","version":3,"id":"p0000000-0000-7000-8000-000000000000","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}';

describe("random bytes and random truncation", () => {
  it("random bytes (also after a valid header): scan and load never throw", async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.uint8Array({ maxLength: 600 }), async (withHeader, bytes) => {
        const content = withHeader ? Buffer.concat([Buffer.from(HEADER + "\n"), bytes]) : Buffer.from(bytes);
        const p = tmpFile(content);
        const scan = await scanSessionFile(p);
        const index = await loadOrNotASession(p);
        if (withHeader) {
          expect(scan.kind).toBe("session");
          expect(index).not.toBeNull();
          expect(index!.header.id).toBe("p0000000-0000-7000-8000-000000000000");
          // Whatever survived is a consistent tree.
          expect(index!.tree.parent.size).toBe(index!.nodes.length);
        } else {
          expect(scan.kind === "session").toBe(index !== null);
          if (scan.kind === "diagnostic") expect(["empty", "not-a-session"]).toContain(scan.diagnostic.kind);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("a valid file cut anywhere keeps exactly the entries whose lines are complete", async () => {
    const lines = VALID.toString("utf8")
      .split("\n")
      .filter((l) => l);
    const ends: number[] = [];
    let pos = 0;
    for (const l of lines) {
      pos += Buffer.byteLength(l);
      ends.push(pos); // the line's last byte is at ends[i] - 1
      pos += 1;
    }
    const ids = lines.slice(1).map((l) => (JSON.parse(l) as { id: string }).id);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: VALID.length }), async (cut) => {
        const p = tmpFile(VALID.subarray(0, cut));
        const scan = await scanSessionFile(p);
        const index = await loadOrNotASession(p);
        if (cut < ends[0]) {
          expect(index).toBeNull();
          expect(scan.kind).toBe("diagnostic");
          return;
        }
        // A line counts when all its bytes are there (the newline may be missing).
        const kept = ids.filter((_, i) => ends[i + 1] <= cut);
        expect(index!.nodes.map((x) => x.id)).toEqual(kept);
        expect(index!.leafId).toBe(kept.length ? kept[kept.length - 1] : null);
        expect(scan.kind).toBe("session");
        if (scan.kind === "session") expect(scan.summary.entryCount).toBe(kept.length);
        const partial = ends.some((e, i) => cut > (i === 0 ? 0 : ends[i - 1] + 1) && cut < e);
        expect(index!.warnings.length > 0).toBe(partial);
      }),
      { numRuns: 200 },
    );
  });
});

describe("random parent graphs", () => {
  // Up to 40 nodes; each parent is null, itself, another node (cycles likely) or missing.
  const graph = fc
    .integer({ min: 1, max: 40 })
    .chain((size) =>
      fc.tuple(
        fc.constant(size),
        fc.array(
          fc.oneof(
            fc.constant("null"),
            fc.constant("self"),
            fc.constant("missing"),
            fc.integer({ min: 0, max: size - 1 }),
          ),
          { minLength: size, maxLength: size },
        ),
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: size, maxLength: size }),
      ),
    )
    .map(([size, parents, times]): TreeNodeLike[] =>
      Array.from({ length: size }, (_, i) => {
        const p = parents[i];
        const parentId = p === "null" ? null : p === "self" ? `n${i}` : p === "missing" ? `gone${i}` : `n${p}`;
        return { id: `n${i}`, parentId, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, times[i])).toISOString() };
      }),
    );

  it("buildTree reaches every node exactly once from the roots; pathToRoot terminates", () => {
    fc.assert(
      fc.property(graph, (nodes) => {
        const shape = buildTree(nodes);
        const seen = new Map<string, number>();
        const stack = [...shape.roots];
        let steps = 0;
        while (stack.length) {
          if (++steps > nodes.length * 2) throw new Error("traversal does not end");
          const id = stack.pop()!;
          seen.set(id, (seen.get(id) ?? 0) + 1);
          for (const k of shape.children.get(id) ?? []) stack.push(k);
        }
        expect([...seen.keys()].sort()).toEqual(nodes.map((x) => x.id).sort());
        expect([...seen.values()].every((c) => c === 1)).toBe(true);
        // Roots have no parent; every other node's effective parent lists it as a child.
        for (const x of nodes) {
          const p = shape.parent.get(x.id);
          if (p === null) expect(shape.roots).toContain(x.id);
          else expect(shape.children.get(p!)).toContain(x.id);
          // Links are only cut where pi would make a root anyway, or to break a cycle.
          const natural = x.parentId !== null && x.parentId !== x.id && nodes.some((y) => y.id === x.parentId);
          if (natural && !shape.cycleBreaks.includes(x.id)) expect(p).toBe(x.parentId);
          if (!natural) expect(p).toBeNull();
          const path = pathToRoot(shape, x.id);
          expect(path.length).toBeLessThanOrEqual(nodes.length);
          expect(path[path.length - 1]).toBe(x.id);
          expect(shape.parent.get(path[0])).toBeNull();
          for (let i = 1; i < path.length; i++) expect(shape.parent.get(path[i])).toBe(path[i - 1]);
        }
        // Children are ordered by timestamp, oldest first.
        const t = new Map(nodes.map((x) => [x.id, x.timestamp]));
        for (const kids of shape.children.values()) {
          for (let i = 1; i < kids.length; i++) expect(t.get(kids[i - 1])! <= t.get(kids[i])!).toBe(true);
        }
      }),
      { numRuns: 250 },
    );
  });

  it("the same graphs through a session file: loadSessionIndex keeps every entry and the active path ends at the leaf", async () => {
    await fc.assert(
      fc.asyncProperty(graph, async (nodes) => {
        const text =
          [HEADER, ...nodes.map((x) => JSON.stringify({ type: "custom", customType: "t", ...x }))].join("\n") + "\n";
        const index = (await loadOrNotASession(tmpFile(text)))!;
        expect(index.nodes.map((x) => x.id)).toEqual(nodes.map((x) => x.id));
        const path = pathToRoot(index.tree, index.leafId);
        expect(path[path.length - 1]).toBe(nodes[nodes.length - 1].id);
        expect(new Set(path).size).toBe(path.length);
      }),
      { numRuns: 60 },
    );
  });
});

describe("no lost valid entry", () => {
  const text = fc.string({ unit: "grapheme", maxLength: 40 });
  const entry = fc.oneof(
    text.map((t) => ({ type: "message", message: { role: "user", content: t } })),
    text.map((t) => ({ type: "message", message: { role: "assistant", content: [{ type: "text", text: t }] } })),
    text.map((t) => ({ type: "custom", customType: t })),
    text.map((t) => ({ type: "session_info", name: t })),
    fc.constant({ type: "something_new", payload: [1, 2] }),
  );
  // Lines that are not entries: broken JSON, non-objects, objects without type or id, blanks.
  const garbage = fc.oneof(
    fc.string({ maxLength: 30 }).map((s) => `{${s}`.replace(/[\r\n]/g, " ")),
    fc.constantFrom("42", "[]", '"s"', "null", "true", "{}", '{"id":"x"}', '{"type":"message"}', "", "   ", "\t", "\r"),
  );

  it("every valid entry, with garbage and blank lines interleaved, appears in the index in order", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(entry, fc.array(garbage, { maxLength: 3 }), fc.integer({ min: 0, max: 1000 })), {
          maxLength: 30,
        }),
        fc.boolean(),
        async (items, crlf) => {
          const ids: string[] = [];
          const lines = [HEADER];
          items.forEach(([e, junk, p], i) => {
            const id = `e${i.toString(16).padStart(7, "0")}`;
            const parentId = i === 0 || p % 5 === 0 ? null : ids[p % i];
            ids.push(id);
            lines.push(
              JSON.stringify({ ...e, id, parentId, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() }),
              ...junk,
            );
          });
          const index = (await loadOrNotASession(tmpFile(lines.join(crlf ? "\r\n" : "\n") + (crlf ? "\r\n" : "\n"))))!;
          expect(index.nodes.map((x) => x.id)).toEqual(ids);
          expect(index.leafId).toBe(ids.length ? ids[ids.length - 1] : null);
          items.forEach(([e], i) => {
            const node = index.byId.get(ids[i])!;
            expect(node.type).toBe(e.type);
            const m = (e as { message?: { role: string; content: unknown } }).message;
            if (m?.role === "user") expect(node.text).toBe((m.content as string).slice(0, 200));
          });
          const lastInfo = [...items].reverse().find(([e]) => e.type === "session_info");
          expect(index.name).toBe(lastInfo ? (lastInfo[0] as { name: string }).name.trim() || undefined : undefined);
        },
      ),
      { numRuns: 150 },
    );
  });
});
