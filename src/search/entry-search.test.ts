import { afterAll, describe, expect, it } from "vitest";
import { assistant, entry, user, writeSession } from "../../test/helpers/session-file.js";
import { loadSessionIndex } from "../store/session-index.js";
import { entryQueryTerms, searchEntries } from "./entry-search.js";

const long = "x".repeat(400) + " needle-at-the-end";
const file = writeSession([
  user("u1", null, "How do I run the tests?"),
  assistant("a1", "u1", "", {
    content: [
      { type: "thinking", thinking: "secret thought" },
      { type: "toolCall", id: "c1", name: "bash", arguments: { command: "npm test" } },
    ],
    stopReason: "toolUse",
  }),
  entry("r1", "a1", {
    message: { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: long }] },
  }),
  assistant("a2", "r1", 'All "Tests" pass: path/to/file'),
  user("u2", "a1", "Other BRANCH about tests"),
]);
afterAll(() => file.cleanup());

describe("searchEntries", () => {
  it("matches every term case-insensitively, in file order", async () => {
    const index = await loadSessionIndex(file.path, { skim: true });
    expect(await searchEntries(file.path, index, "TESTS")).toEqual(["u1", "a2", "u2"]);
    expect(await searchEntries(file.path, index, "tests branch")).toEqual(["u2"]);
    expect(await searchEntries(file.path, index, "   ")).toEqual([]);
  });

  it("searches the full text, not the first 200 characters, and tool-call lines", async () => {
    const index = await loadSessionIndex(file.path, { skim: true });
    expect(await searchEntries(file.path, index, "needle-at-the-end")).toEqual(["r1"]);
    expect(await searchEntries(file.path, index, "npm test")).toEqual(["a1"]);
  });

  it("leaves thinking out and handles characters JSON escapes", async () => {
    const index = await loadSessionIndex(file.path, { skim: true });
    expect(await searchEntries(file.path, index, "secret")).toEqual([]);
    expect(await searchEntries(file.path, index, '"tests"')).toEqual(["a2"]);
    expect(await searchEntries(file.path, index, "path/to/file")).toEqual(["a2"]);
  });

  it("rejects when aborted", async () => {
    const index = await loadSessionIndex(file.path, { skim: true });
    const ac = new AbortController();
    ac.abort();
    await expect(searchEntries(file.path, index, "tests", ac.signal)).rejects.toThrow(/aborted/);
  });

  it("splits terms", () => {
    expect(entryQueryTerms("  Foo\tbar  ")).toEqual(["foo", "bar"]);
  });
});
