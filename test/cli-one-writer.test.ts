// Every command's output against a store, a settings file and arguments whose every field
// carries escape sequences (OSC, CSI, their C1 forms, bidi controls). Text for a person goes
// through the browser's sanitiser (src/cli/common/output.ts, the one writer): none of them
// reaches the terminal. JSON stays JSON: the same values, with every such character written
// as its \u escape, never raw.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, type CliResult } from "./helpers/cli.js";
import { cleanupTmp, makeTmpDir } from "./helpers/tmp-store.js";

afterEach(cleanupTmp);

const OSC = "\x1b]0;PWNED\x07";
const CSI = "\x1b[2J";
const C1_CSI = "\u009b2J";
const C1_OSC = "\u009d0;PWNED\u0007";
const BIDI = "\u202e\u2066";
/** All of them, as a field holds them. */
const EVIL = `${OSC}${CSI}${C1_CSI}${C1_OSC}${BIDI}`;
/** What must never be printed raw: C0 but tab and newline, DEL, C1, bidi overrides and isolates. */
const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
const ID = `feed0000-${EVIL}-id`;

function hostileStore() {
  const root = makeTmpDir();
  const store = join(root, "sessions");
  const folder = join(store, `--tmp-${OSC}proj--`);
  mkdirSync(folder, { recursive: true });
  const ts = (n: number) => new Date(Date.parse("2026-05-02T09:15:00Z") + n * 1000).toISOString();
  const lines = [
    { type: "session", version: 3, id: ID, timestamp: ts(0), cwd: `/tmp/${EVIL}proj` },
    {
      type: "message",
      id: "u1",
      parentId: null,
      timestamp: ts(1),
      message: { role: "user", content: `hello ${EVIL} world`, timestamp: 1 },
    },
    {
      type: "message",
      id: "a1",
      parentId: "u1",
      timestamp: ts(2),
      message: {
        role: "assistant",
        content: [
          { type: "text", text: `answer ${EVIL} here` },
          { type: "toolCall", id: "c1", name: `bash${EVIL}`, arguments: { command: `echo ${EVIL} tool` } },
        ],
        stopReason: "toolUse",
        model: `model${EVIL}`,
        provider: `provider${EVIL}`,
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { total: 0.01 } },
      },
    },
    {
      type: "message",
      id: "t1",
      parentId: "a1",
      timestamp: ts(3),
      message: {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "bash",
        content: [{ type: "text", text: `out ${EVIL} put` }],
      },
    },
    { type: "label", id: "l1", parentId: "t1", timestamp: ts(4), targetId: "u1", label: `lab${EVIL}el` },
    { type: "session_info", id: "s1", parentId: "l1", timestamp: ts(5), name: `name ${EVIL} x` },
  ];
  const file = join(folder, `2026-05-02T09-14-03-221Z_${EVIL}.jsonl`);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const env = {
    HOME: root,
    XDG_DATA_HOME: join(root, "data"),
    XDG_STATE_HOME: join(root, "state"),
    XDG_CACHE_HOME: join(root, "cache"),
    XDG_CONFIG_HOME: join(root, "config"),
  };
  return { root, store, file, env };
}

/** Text output: nothing active on stdout or stderr (on a terminal, the writer's own hit marks only). */
function expectClean(r: CliResult, what: string) {
  const all = (r.stdout + r.stderr).replaceAll("\x1b[7m", "").replaceAll("\x1b[27m", "");
  expect(all, what).not.toMatch(ACTIVE);
  expect(all, what).not.toContain("PWNED\x07");
}

/** JSON output: valid, nothing active raw in it, and `field` read back holds the escapes as written. */
function expectJson(r: CliResult, what: string): unknown {
  expect(r.code, `${what}: ${r.stderr}`).toBe(0);
  expect(r.stdout, what).not.toMatch(ACTIVE);
  expect(r.stderr, what).not.toMatch(ACTIVE);
  for (const c of ["\\u001b", "\\u009b", "\\u009d", "\\u202e", "\\u2066"])
    expect(r.stdout, `${what} ${c}`).toContain(c);
  return JSON.parse(r.stdout);
}

describe("one writer: every command's text is sanitized, its JSON escaped", () => {
  it("list, show, stats, search and export: every field", async () => {
    const h = hostileStore();
    const s = ["--session-dir", h.store];
    const o = { env: h.env, cwd: h.root };
    for (const tty of [false, true]) {
      const t = { ...o, isTTY: tty, columns: tty ? 200 : undefined };
      for (const argv of [
        ["list", "--all"],
        ["list", "--cwd", `/tmp/${EVIL}proj`],
        ["show", h.file],
        ["stats", "--all"],
        ["search", "--all", "world"],
        ["search", "--all", "answer"],
        ["search", "--all", "--tools", "put"],
        ["search", "--all", "re:hel+o"],
        // Only the id holds it: the result says where it matched ("id: …"), the id's escapes with it.
        ["search", "--all", "feed0000"],
        ["search", "--all", "name:name"],
        ["export", h.file],
        ["export", h.file, "--format", "html"],
      ]) {
        const r = await runCli([...argv, ...s], t);
        expect(r.code, `${argv.join(" ")}: ${r.stderr}`).toBe(0);
        expectClean(r, `${argv.join(" ")} (${tty ? "terminal" : "pipe"})`);
      }
    }
    const why = await runCli(["search", "--all", "feed0000", ...s], o);
    expect(why.stdout).toMatch(/^ {6}id: feed0000-.*-id$/m);
    const rows = expectJson(await runCli(["list", "--all", "--json", ...s], o), "list --json") as { id: string }[];
    expect(rows[0].id).toBe(ID);
    const found = expectJson(await runCli(["search", "--all", "--json", "feed0000", ...s], o), "search --json") as {
      id: string;
      snippets: { text: string }[];
    }[];
    expect(found[0].id).toBe(ID);
    // Asked again: the kept answer, escaped the same.
    expectJson(await runCli(["search", "--all", "--json", "feed0000", ...s], o), "search --json (kept)");
    expectJson(await runCli(["list", "--all", "--json", ...s], o), "list --json (kept)");
    const shown = expectJson(await runCli(["show", h.file, "--json", ...s], o), "show --json") as { id?: string };
    expect(JSON.stringify(shown)).toContain(ID.slice(0, 9));
    expectJson(await runCli(["stats", "--all", "--json", ...s], o), "stats --json");
    const jsonl = await runCli(["export", h.file, "--format", "jsonl", ...s], o);
    expect(jsonl.code).toBe(0);
    expect(jsonl.stdout).not.toMatch(ACTIVE);
    const entries = jsonl.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { message?: { content?: unknown } });
    expect(entries.map((e) => e.message?.content)).toContain(`hello ${EVIL} world`);
  });

  it("rename, label, delete, restore and index", async () => {
    const h = hostileStore();
    const s = ["--session-dir", h.store];
    const o = { env: h.env, cwd: h.root };
    for (const argv of [
      ["rename", h.file, `new ${EVIL} name`],
      ["label", h.file, "u1", `new ${EVIL} label`],
      ["label", h.file, `u1${EVIL}`, "x"],
      ["index"],
      ["index", "--status"],
      ["delete", h.file, "--yes"],
      ["restore", "--last"],
    ]) {
      const r = await runCli([...argv, ...s], o);
      expectClean(r, argv.join(" "));
    }
    const status = await runCli(["index", "--status", "--json", ...s], o);
    expect(status.code).toBe(0);
    expect(status.stdout).not.toMatch(ACTIVE);
  });

  it("errors and usage: an unknown command, an unknown help topic, a bad query, a missing session", async () => {
    const h = hostileStore();
    const o = { env: h.env, cwd: h.root };
    for (const argv of [
      [`lst${EVIL}`],
      ["help", `x${EVIL}`],
      ["search", `re:(${EVIL}`],
      ["show", `nope${EVIL}`, "--session-dir", h.store],
      ["list", "--sort", `x${EVIL}`],
      ["list", "--session-dir", join(h.root, `missing${EVIL}`)],
    ]) {
      const r = await runCli(argv, o);
      expectClean(r, argv.join(" "));
    }
  });
});

describe("config: the settings file's names and keys are never echoed raw", () => {
  it("config prints its warnings sanitized and the settings as escaped JSON", async () => {
    const root = makeTmpDir();
    const path = join(root, "settings.json");
    writeFileSync(
      path,
      JSON.stringify({
        [`scope${EVIL}`]: "all",
        theme: `dark${EVIL}`,
        keys: { [`cmd${EVIL}`]: ["x"], quit: [`k${EVIL}`] },
      }),
    );
    const r = await runCli(["config", "--config", path], { env: { HOME: root }, cwd: root });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('unknown setting "scope');
    expect(r.stderr).toContain('unknown command "cmd');
    expect(r.stdout + r.stderr).not.toMatch(ACTIVE);
    expect(JSON.parse(r.stdout)).toMatchObject({ keys: { [`cmd${EVIL}`]: ["x"] } });
    const broken = join(root, "broken.json");
    writeFileSync(broken, `{"a": 1, ${EVIL}`);
    const b = await runCli(["config", "--config", broken], { env: { HOME: root }, cwd: root });
    expect(b.stderr).toContain("not valid JSON");
    expect(b.stdout + b.stderr).not.toMatch(ACTIVE);
  });
});
