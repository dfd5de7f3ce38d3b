// Big inputs, generated in a temp dir at test time (never committed): a 100,000-deep
// chain (iterative algorithms only) and 20 MB single lines (tool results).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSessionIndex } from "../src/store/session-index.js";
import { scanSessionFile } from "../src/store/scan-file.js";
import { runCli } from "./helpers/cli.js";
import { cleanupTmp, makeTmpDir } from "./helpers/tmp-store.js";

const T0 = Date.parse("2026-03-01T00:00:00.000Z");
const iso = (i: number) => new Date(T0 + i * 1000).toISOString();
const header = (id: string) => JSON.stringify({ type: "session", version: 3, id, timestamp: iso(0), cwd: "/big" });
const hex = (i: number) => i.toString(16).padStart(8, "0");

let store: string;
let chainPath: string;
let hugePath: string;
let hugeMalformedPath: string;
let hugeMidMalformedPath: string;
const DEPTH = 100_000;
const BIG = 20 * 1024 * 1024;

function hugeLines(id: string, body: string): string[] {
  return [
    header(id),
    JSON.stringify({
      type: "message",
      id: "00000001",
      parentId: null,
      timestamp: iso(1),
      message: { role: "user", content: "read the big file", timestamp: T0 + 1000 },
    }),
    JSON.stringify({
      type: "message",
      id: "00000002",
      parentId: "00000001",
      timestamp: iso(2),
      message: {
        role: "assistant",
        content: [{ type: "toolCall", id: "tc1", name: "read", arguments: { path: "big.txt" } }],
        timestamp: T0 + 2000,
      },
    }),
    JSON.stringify({
      type: "message",
      id: "00000003",
      parentId: "00000002",
      timestamp: iso(3),
      message: {
        role: "toolResult",
        toolCallId: "tc1",
        toolName: "read",
        content: [{ type: "text", text: body }],
        isError: false,
        timestamp: T0 + 3000,
      },
    }),
    JSON.stringify({
      type: "message",
      id: "00000004",
      parentId: "00000003",
      timestamp: iso(4),
      message: { role: "assistant", content: [{ type: "text", text: "done" }], timestamp: T0 + 4000 },
    }),
  ];
}

beforeAll(() => {
  store = join(makeTmpDir(), "sessions");
  const dir = join(store, "--big--");
  mkdirSync(dir, { recursive: true });

  const lines = [header("b1000000-0000-7000-8000-000000000001")];
  for (let i = 1; i <= DEPTH; i++) {
    lines.push(
      JSON.stringify({
        type: "message",
        id: hex(i),
        parentId: i === 1 ? null : hex(i - 1),
        timestamp: iso(i),
        message: { role: i % 2 ? "user" : "assistant", content: `m${i}`, timestamp: T0 + i * 1000 },
      }),
    );
  }
  chainPath = join(dir, "chain.jsonl");
  writeFileSync(chainPath, lines.join("\n") + "\n");

  // 20 MB of multi-byte text: "é" is 2 bytes, so chunk boundaries fall inside characters.
  const body = "é".repeat(BIG / 2);
  hugePath = join(dir, "huge.jsonl");
  writeFileSync(hugePath, hugeLines("b1000000-0000-7000-8000-000000000002", body).join("\n") + "\n");

  // The same line cut short (no closing brace): malformed.
  const bad = hugeLines("b1000000-0000-7000-8000-000000000003", body);
  bad[3] = bad[3].slice(0, bad[3].length - 40);
  hugeMalformedPath = join(dir, "huge-malformed.jsonl");
  writeFileSync(hugeMalformedPath, bad.join("\n") + "\n");

  // Broken in the middle only: it still starts and ends like a tool result.
  const mid = hugeLines("b1000000-0000-7000-8000-000000000004", body);
  const half = mid[3].length >> 1;
  mid[3] = `${mid[3].slice(0, half)}"broken"${mid[3].slice(half)}`;
  hugeMidMalformedPath = join(dir, "huge-mid-malformed.jsonl");
  writeFileSync(hugeMidMalformedPath, mid.join("\n") + "\n");
});
afterAll(cleanupTmp);

describe("a 100,000-deep linear chain", () => {
  it("show --json works: every entry, activePath of 100,000 from root to leaf", async () => {
    const r = await runCli(["show", chainPath, "--json"]);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.entries).toHaveLength(DEPTH);
    expect(s.leafId).toBe(hex(DEPTH));
    expect(s.activePath).toHaveLength(DEPTH);
    expect(s.activePath[0]).toBe(hex(1));
    expect(s.activePath[DEPTH - 1]).toBe(hex(DEPTH));
  });

  it("the index's tree is one root with one long path", async () => {
    const index = await loadSessionIndex(chainPath);
    expect(index.tree.roots).toEqual([hex(1)]);
    expect(index.tree.cycleBreaks).toEqual([]);
    expect(index.tree.children.get(hex(DEPTH - 1))).toEqual([hex(DEPTH)]);
  });

  it("scans into a summary with every message counted and one leaf", async () => {
    const r = await scanSessionFile(chainPath);
    expect(r.kind).toBe("session");
    if (r.kind !== "session") return;
    expect(r.summary.messageCount).toBe(DEPTH);
    expect(r.summary.entryCount).toBe(DEPTH);
    expect(r.summary.leafCount).toBe(1);
    expect(r.summary.firstMessage).toBe("m1");
  });
});

describe("20 MB single lines", () => {
  let rows: { path: string; messageCount: number; warnings: string[]; firstMessage: string }[];
  beforeAll(async () => {
    const r = await runCli(["list", "--all", "--json", "--session-dir", store]);
    expect(r.code).toBe(0);
    rows = JSON.parse(r.stdout);
  });
  const row = (p: string) => rows.find((x) => x.path === p)!;

  it("list: a 20 MB tool result counts as a message", () => {
    expect(rows).toHaveLength(4);
    expect(row(hugePath)).toMatchObject({ messageCount: 4, warnings: [], firstMessage: "read the big file" });
  });

  it("show: the 20 MB entry is present with its first 200 characters", async () => {
    const r = await runCli(["show", hugePath, "--json"]);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.entries.map((e: { role: string }) => e.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(s.entries[2].text).toBe("é".repeat(200));
    expect(s.activePath).toEqual(["00000001", "00000002", "00000003", "00000004"]);
  });

  it("a 20 MB line cut short is skipped and counted (list and show)", async () => {
    expect(row(hugeMalformedPath).messageCount).toBe(3);
    expect(row(hugeMalformedPath).warnings).toEqual(["line 4: malformed JSON, skipped"]);
    const s = JSON.parse((await runCli(["show", hugeMalformedPath, "--json"])).stdout);
    expect(s.entries.map((e: { id: string }) => e.id)).toEqual(["00000001", "00000002", "00000004"]);
    expect(s.warnings).toEqual(["line 4: malformed JSON, skipped"]);
  });

  it("a 20 MB line broken in the middle: show skips it as pi does", async () => {
    const s = JSON.parse((await runCli(["show", hugeMidMalformedPath, "--json"])).stdout);
    expect(s.entries.map((e: { id: string }) => e.id)).toEqual(["00000001", "00000002", "00000004"]);
    expect(s.warnings).toEqual(["line 4: malformed JSON, skipped"]);
  });

  // KNOWN BUG (reported): list skims bulky tool-result lines (parse-line.ts SKIM_PREFIX +
  // closing brace) without validating the body, so this malformed line is counted as a
  // message (messageCount 4, no warning) where pi skips it (3). Remove `.fails` once fixed.
  it.fails("a 20 MB line broken in the middle: list counts it as skipped too (pi's messageCount is 3)", () => {
    expect(row(hugeMidMalformedPath).warnings).toEqual(["line 4: malformed JSON, skipped"]);
    expect(row(hugeMidMalformedPath).messageCount).toBe(3);
  });
});
