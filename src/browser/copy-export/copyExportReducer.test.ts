import type { Key } from "../keys/key.js";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSessionIndex, type SessionIndex } from "../../store/session-index.js";
import { K } from "../../../test/helpers/keys.js";
import { writeBranchedSession } from "../../../test/helpers/session-file.js";
import { makeSummary } from "../../../test/helpers/sessions.js";
import { type AppAction, type AppState, initialState, modeOf } from "../app/appReducer.js";
import { blockText, copyRefusal, MAX_COPY_BYTES, resumeCommand, shellQuote } from "./copyText.js";
import { exportBaseName, exportText, writeExport } from "./exportFile.js";
import { reduce, scanSummaries } from "../../../test/helpers/update.js";

const file = writeBranchedSession();
const tmp = mkdtempSync(join(tmpdir(), "pi-sessions-takeout-"));
afterAll(() => {
  file.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});
const CWD = "/home/u/my proj";
let index: SessionIndex;
beforeAll(async () => {
  index = await loadSessionIndex(file.path, { skim: true });
});

const run = (s: AppState, ...actions: AppAction[]) => reduce(s, ...actions);
const key = (k: readonly [string, Key]): AppAction => ({ type: "key", input: k[0], key: k[1] });
const press = (c: string) => key(K.char(c));
const last = (s: AppState) => s.effects[s.effects.length - 1];

function listed(print = false): AppState {
  const summary = makeSummary({ path: file.path, id: "0196e0a2-8c1d", cwd: CWD, firstMessage: "first question" });
  return run(initialState({ launchCwd: CWD, print }), scanSummaries([summary]));
}

describe("copy", () => {
  it("in the list: y the first message, p the path, i the id, c the resume command (shell-quoted)", () => {
    const s = listed();
    expect(last(run(s, press("y")))).toMatchObject({
      type: "copy",
      text: "first question",
      what: "the session's first message (14 characters)",
    });
    expect(last(run(s, press("p")))).toMatchObject({ type: "copy", text: file.path });
    expect(last(run(s, press("i")))).toMatchObject({ type: "copy", text: "0196e0a2-8c1d" });
    expect(last(run(s, press("c")))).toMatchObject({
      type: "copy",
      text: `cd '/home/u/my proj' && pi --session ${file.path}`,
    });
  });

  it("c's resume command runs the configured pi command, each word shell-quoted", () => {
    const summary = makeSummary({ path: file.path, id: "0196e0a2-8c1d", cwd: CWD, firstMessage: "first question" });
    const withPi = (piCommand: string[]) =>
      run(initialState({ launchCwd: CWD, piCommand }), scanSummaries([summary]), press("c"));
    expect(last(withPi(["npx", "pi"]))).toMatchObject({
      type: "copy",
      text: `cd '/home/u/my proj' && npx pi --session ${file.path}`,
      what: `the resume command: cd '/home/u/my proj' && npx pi --session ${file.path}`,
    });
    expect(last(withPi(["/opt/my tools/pi", "--verbose"]))).toMatchObject({
      text: `cd '/home/u/my proj' && '/opt/my tools/pi' --verbose --session ${file.path}`,
    });
    expect(resumeCommand("/x", "/s.jsonl", ["$(touch x)"])).toBe("cd /x && '$(touch x)' --session /s.jsonl");
  });

  it("in the reader: y copies the message under the cursor", () => {
    let s = run(listed(), press("v"));
    s = run(
      s,
      { type: "reader.loaded", path: file.path, seq: s.reader!.loadSeq, index },
      { type: "reader.resize", width: 60, height: 8 },
      press("g"),
    );
    expect(last(run(s, press("y")))).toMatchObject({
      type: "copy",
      text: "first question",
      what: "your message (14 characters)",
    });
    s = run(s, press("}"));
    expect(last(run(s, press("y")))).toMatchObject({
      type: "copy",
      text: "first answer",
      what: "the assistant's message (12 characters)",
    });
  });

  it("in the tree: y reads and copies the selected entry", () => {
    let s = run(listed(), press("t"));
    s = run(s, { type: "tree.loaded", path: file.path, seq: s.tree!.loadSeq, index });
    expect(last(run(s, press("y")))).toMatchObject({ type: "copyEntry", index, entryId: "a3" });
  });

  it("refuses a text too big for OSC 52, counting bytes, and says what to do instead", () => {
    expect(copyRefusal("x".repeat(MAX_COPY_BYTES))).toBeUndefined();
    expect(copyRefusal("x".repeat(MAX_COPY_BYTES + 1))).toMatch(/too big to copy .*4\.0 MB.*e exports/);
    // Multi-byte characters count as the bytes they take.
    expect(copyRefusal("é".repeat(MAX_COPY_BYTES / 2 + 1))).toBeDefined();
  });

  it("shell quoting keeps safe words bare and quotes the rest, quotes included", () => {
    expect(shellQuote("/a/b-c_d.jsonl")).toBe("/a/b-c_d.jsonl");
    expect(shellQuote("it's here")).toBe(`'it'\\''s here'`);
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("$(rm -rf ~)")).toBe("'$(rm -rf ~)'");
    expect(resumeCommand("/x y", "/s.jsonl")).toBe("cd '/x y' && pi --session /s.jsonl");
  });

  it("a tool block's copy is its title and output, a bulky output read only then", () => {
    let reads = 0;
    const text = blockText({
      kind: "tool",
      entryId: "a",
      title: "bash: ls",
      isError: false,
      images: 0,
      bytes: 1,
      load: () => (reads++, { output: "a\nb", isError: false, images: 0 }),
    });
    expect(text).toBe("bash: ls\na\nb");
    expect(reads).toBe(1);
  });
});

describe("export", () => {
  it("e opens the choices; a choice closes them and asks for the file, in the current folder", () => {
    let s = run(listed(), press("e"));
    expect(modeOf(s)).toBe("export");
    s = run(s, { type: "choose", command: "export.html" });
    expect(modeOf(s)).toBe("list");
    expect(last(s)).toMatchObject({ type: "export", path: file.path, format: "html", dir: CWD });
    expect(modeOf(run(listed(), press("e"), key(K.escape)))).toBe("list");
    // Its keys: l for JSONL (j belongs to the choice list's movement).
    expect(last(run(listed(), press("e"), press("l")))).toMatchObject({ type: "export", format: "jsonl" });
  });

  it("from the reader, the export is of the branch the reader shows", () => {
    let s = run(listed(), press("v"));
    s = run(
      s,
      { type: "reader.loaded", path: file.path, seq: s.reader!.loadSeq, index },
      { type: "reader.resize", width: 60, height: 8 },
      press("]"),
    );
    s = run(s, press("e"), press("m"));
    expect(last(s)).toMatchObject({ type: "export", format: "md", leafId: "a2" });
    expect(modeOf(s)).toBe("reader");
  });

  it("writes a new file and never replaces one: the next free name", () => {
    const { stem, ext } = exportBaseName(String(index.header.id), "md");
    expect(`${stem}.${ext}`).toBe("pi-session-0196e0a2.md");
    expect(exportBaseName("x", "mdAll").stem).toBe("pi-session-x-all-branches");
    writeFileSync(join(tmp, `${stem}.${ext}`), "mine");
    const path = writeExport(tmp, stem, ext, exportText(index, "md", "a2"));
    expect(path).toBe(join(tmp, `${stem}-2.${ext}`));
    expect(readFileSync(join(tmp, `${stem}.${ext}`), "utf8")).toBe("mine");
    const md = readFileSync(path, "utf8");
    expect(md).toContain("old branch answer");
    expect(md).not.toContain("new branch answer");
    expect(existsSync(join(tmp, `${stem}-3.${ext}`))).toBe(false);
  });
});

describe("n and D", () => {
  it("a asks to leave for a new pi session in the session's folder (not while picking); Ctrl+N is pi's named filter", () => {
    const ctrlN = key(["n", { ...K.enter[1], return: false, ctrl: true }]);
    expect(last(run(listed(), press("a")))).toMatchObject({ type: "newSession", cwd: CWD });
    expect(run(listed(), ctrlN).effects).toEqual([]);
    expect(run(listed(), ctrlN).namedOnly).toBe(true);
    // n alone is "next match" wherever a search is; it never leaves for pi.
    expect(run(listed(), press("n")).effects).toEqual([]);
    // The picker opens in its search field, where a is typed; the command itself says why not.
    const picking = run(listed(true), { type: "command", command: "session.new" });
    expect(picking.effects).toEqual([]);
    expect(picking.status?.tone).toBe("error");
    expect(run(listed(true), press("a")).search.value).toBe("a");
  });

  it("D asks twice: y to the first question, then only Y (y, a repeat of the first key, cancels)", () => {
    let s = run(listed(), { type: "lifecycle.setup", trashDir: "/trash" }, press("D"));
    expect(s.stack.at(-1)).toMatchObject({ kind: "delete", step: "confirm", permanent: true });
    // Enter cancels even the first step: only y goes on.
    expect(run(s, key(K.enter)).stack.at(-1)).toBeUndefined();
    s = run(s, press("y"));
    expect(s.stack.at(-1)).toMatchObject({ kind: "delete", step: "permanent" });
    expect(s.effects).toEqual([]);
    // Enter again does not delete for good: it cancels; so does y (held, or tapped twice).
    expect(run(s, key(K.enter)).effects).toEqual([]);
    const again = run(s, press("y"));
    expect(again.effects).toEqual([]);
    expect(again.stack.at(-1)).toBeUndefined();
    expect(again.status?.text).toBe("not deleted");
    s = run(s, press("Y"));
    expect(last(s)).toMatchObject({ type: "deletePermanently", targets: [{ path: file.path }] });
    // d goes to the trash.
    expect(last(run(listed(), { type: "lifecycle.setup", trashDir: "/trash" }, press("d"), press("y")))).toMatchObject({
      type: "trash",
    });
  });
});
