import { SessionManager } from "@mariozechner/pi-coding-agent";
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { labelEntry } from "../src/actions/label.js";
import { renameSession } from "../src/actions/rename.js";

const STORE = join(import.meta.dirname, "..", "fixtures", "pi-generated", "agent", "sessions");
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

// A stand-in for a running pi: appends user/assistant messages one line per write
// (appendFileSync of JSON + "\n", O_APPEND), each parented at the last line it wrote,
// in bursts of 20 a few ms apart, until it has written `count` entries.
const WRITER = `
const { appendFileSync, readFileSync } = require("node:fs");
const [file, count] = [process.argv[1], Number(process.argv[2])];
const lines = readFileSync(file, "utf8").trim().split("\\n");
let parent = JSON.parse(lines[lines.length - 1]).id;
let i = 0;
const burst = () => {
for (const end = Math.min(count, i + 20); i < end; i++) {
  const id = "w" + String(i).padStart(7, "0");
  const role = i % 2 ? "assistant" : "user";
  const message = role === "user"
    ? { role, content: "writer message " + i, timestamp: Date.now() }
    : { role, content: [{ type: "text", text: "reply " + i }], provider: "p", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: Date.now() };
  appendFileSync(file, JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date().toISOString(), message }) + "\\n");
  parent = id;
}
if (i < count) setTimeout(burst, 3);
};
burst();
`;

describe("appending while another process appends (as a running pi does)", () => {
  it("loses nothing: every line parses and pi reads every entry, ours included", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-sessions-concurrent-"));
    dirs.push(dir);
    cpSync(STORE, dir, { recursive: true });
    const folder = readdirSync(dir).map((d) => join(dir, d))[0];
    const file = join(folder, readdirSync(folder).filter((f) => f.endsWith(".jsonl"))[0]);
    const before = readFileSync(file);
    const target = SessionManager.open(file)
      .getEntries()
      .find((e) => e.type === "message")!.id;

    const writer = spawn(process.execPath, ["-e", WRITER, file, "3000"], { stdio: "ignore" });
    const exited = new Promise<number | null>((r) => writer.on("exit", r));
    // Start once the writer is writing, so the two really overlap.
    while (readFileSync(file).length === before.length) await new Promise((r) => setTimeout(r, 2));
    const ours: string[] = [];
    for (let i = 0; i < 15; i++) {
      ours.push((await renameSession(file, `name ${i}`)).id);
      ours.push((await labelEntry(file, target, `label ${i}`)).id);
    }
    expect(await exited).toBe(0);

    const after = readFileSync(file);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const lines = after.toString("utf8").trim().split("\n");
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const sm = SessionManager.open(file);
    const ids = new Set(sm.getEntries().map((e) => e.id));
    for (const id of ours) expect(ids.has(id)).toBe(true);
    for (let i = 0; i < 3000; i++) expect(ids.has(`w${String(i).padStart(7, "0")}`)).toBe(true);
    expect(sm.getEntries()).toHaveLength(lines.length - 1);
    expect(sm.getSessionName()).toBe("name 14");
    expect(sm.getLabel(target)).toBe("label 14");
    // The writes did interleave: some of ours sit between the writer's lines.
    const order = lines.slice(1).map((l) => JSON.parse(l).id as string);
    const lastWriter = order.findLastIndex((id) => id.startsWith("w"));
    expect(order.findIndex((id) => ours.includes(id))).toBeLessThan(lastWriter);
  });
});
