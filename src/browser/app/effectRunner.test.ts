import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseQuery } from "../../search/query.js";
import { textTerms } from "../../search/fulltext.js";
import { decodeName } from "../../store/fs-path.js";
import type { AppAction } from "./appReducer.js";
import type { Outcome } from "./effects.js";
import { createEffectRunner, type EffectIO, VERIFY_MAX_BYTES } from "./effectRunner.js";

function io(over: Partial<EffectIO> = {}) {
  const exits: Outcome[] = [];
  const base = {
    lifecycle: { trashLocation: () => "/trash" },
    cwdExists: (d: string) => d === "/here",
    exit: (o: Outcome) => void exits.push(o),
    afterWrite: () => {},
    ...over,
  } as unknown as EffectIO;
  return { io: base, exits };
}

/** The check of the file at `path` for "parser" that holds back a resume (key "k"). */
function parserCheckOf(path: string) {
  const action: AppAction = { type: "command", command: "session.resume" };
  return {
    type: "fulltext.verify" as const,
    key: "k",
    path,
    terms: textTerms(parseQuery("parser")),
    includeTools: false,
    need: undefined,
    action,
  };
}

describe("the effect runner", () => {
  it("resumes in the session's folder, or where the browser started when that is gone (pi asks there, once)", () => {
    const { io: x, exits } = io();
    const actions: AppAction[] = [];
    const r = createEffectRunner(() => x);
    r.run({ type: "resume", path: "/s.jsonl", cwd: "/here", launchCwd: "/launch" }, (a) => actions.push(a));
    r.run({ type: "resume", path: "/s.jsonl", cwd: "/gone", launchCwd: "/launch" }, (a) => actions.push(a));
    expect(exits).toEqual([
      { kind: "resume", path: "/s.jsonl", cwd: "/here" },
      { kind: "resume", path: "/s.jsonl", cwd: "/launch" },
    ]);
    expect(actions).toEqual([]);
  });
  it("does not leave for pi when pi cannot start, and says why", () => {
    const { io: x, exits } = io({ piProblem: () => "pi is not installed" });
    const actions: AppAction[] = [];
    createEffectRunner(() => x).run({ type: "exit", outcome: { kind: "resume", path: "/s", cwd: "/here" } }, (a) =>
      actions.push(a),
    );
    expect(exits).toEqual([]);
    expect(actions).toEqual([{ type: "lifecycle.failed", message: "pi is not installed" }]);
  });
  it("reads the io at each effect, so it always uses the current deps", () => {
    let x = io().io;
    const r = createEffectRunner(() => x);
    const actions: AppAction[] = [];
    r.run({ type: "trashLocation" }, (a) => actions.push(a));
    x = io({ lifecycle: { trashLocation: () => undefined } as unknown as EffectIO["lifecycle"] }).io;
    r.run({ type: "trashLocation" }, (a) => actions.push(a));
    expect(actions).toEqual([
      { type: "lifecycle.setup", trashDir: "/trash" },
      { type: "lifecycle.setup", trashDir: null },
    ]);
  });
  it("checks a row still to check against its file as it is now, and hands the held action back with the verdict", () => {
    const dir = mkdtempSync(join(tmpdir(), "verify-"));
    try {
      const path = join(dir, "s.jsonl");
      const msg = (text: string) =>
        JSON.stringify({ type: "message", id: "m", parentId: null, message: { role: "user", content: text } });
      writeFileSync(path, `${msg("a part of the user")}\n`);
      const verify = parserCheckOf(path);
      const { action } = verify;
      const r = createEffectRunner(() => io().io);
      const actions: AppAction[] = [];
      r.run(verify, (a) => actions.push(a));
      writeFileSync(path, `${msg("a part of the user")}\n${msg("fix the parser")}\n`);
      r.run(verify, (a) => actions.push(a));
      r.run({ ...verify, path: join(dir, "gone.jsonl") }, (a) => actions.push(a));
      // A session its own fields list (need null) holds whatever its file does: not read.
      r.run({ ...verify, path: join(dir, "gone.jsonl"), need: null }, (a) => actions.push(a));
      // ...nor one whose fields hold every word (no term needed of its conversation).
      r.run({ ...verify, path: join(dir, "gone.jsonl"), need: [false] }, (a) => actions.push(a));
      expect(actions).toEqual([
        { type: "fulltext.verified", key: "k", path, holds: false, action },
        { type: "fulltext.verified", key: "k", path, holds: true, action },
        // Unread is no verdict (not a "no"): the reducer does not act, and says why.
        { type: "fulltext.verified", key: "k", path: join(dir, "gone.jsonl"), holds: false, unread: "ENOENT", action },
        { type: "fulltext.verified", key: "k", path: join(dir, "gone.jsonl"), holds: true, action },
        { type: "fulltext.verified", key: "k", path: join(dir, "gone.jsonl"), holds: true, action },
      ]);
      // A file whose name is not UTF-8 is read by its bytes, as every reader does (fs-path.ts).
      const bytes = Buffer.concat([Buffer.from(dir + "/s-"), Buffer.from([0xff]), Buffer.from(".jsonl")]);
      writeFileSync(bytes, `${msg("fix the parser")}\n`);
      const odd = join(dir, decodeName(Buffer.from([...Buffer.from("s-"), 0xff, ...Buffer.from(".jsonl")])));
      const got: AppAction[] = [];
      r.run({ ...verify, path: odd }, (a) => got.push(a));
      expect(got).toEqual([{ type: "fulltext.verified", key: "k", path: odd, holds: true, action }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("does not read a file too big to read at once: no verdict, its size said", () => {
    const dir = mkdtempSync(join(tmpdir(), "verify-"));
    try {
      const path = join(dir, "big.jsonl");
      writeFileSync(path, "");
      truncateSync(path, VERIFY_MAX_BYTES + 1); // sparse: nothing written, and it would not match if read
      const verify = parserCheckOf(path);
      const { action } = verify;
      const actions: AppAction[] = [];
      createEffectRunner(() => io().io).run(verify, (a) => actions.push(a));
      expect(actions).toEqual([
        { type: "fulltext.verified", key: "k", path, holds: false, large: VERIFY_MAX_BYTES + 1, action },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
