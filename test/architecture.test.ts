import madge from "madge";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

/*
 * The layers, checked: components/ draws (Ink, React); src/ is everything else and never
 * reaches the UI; the browser's logic (src/browser) keeps I/O out of its reducers; no folder
 * imports a folder that imports it back.
 */
const ROOT = join(import.meta.dirname, "..");

let built: ReturnType<typeof madge> | undefined;
/** The import graph, read once for every rule below (each read parses every file). */
function graph() {
  return (built ??= madge([join(ROOT, "src"), join(ROOT, "components")], {
    baseDir: ROOT,
    fileExtensions: ["ts", "tsx"],
    tsConfig: join(ROOT, "tsconfig.json"),
    excludeRegExp: [/\.test\.tsx?$/],
  }));
}

/** The external modules a file imports (what madge leaves out of its graph). */
function packagesOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [
    ...text.matchAll(
      /(?:^|\n)\s*(?:import|export)\b[^"';]*?from\s*["']([^."'][^"']*)["']|import\(\s*["']([^."'][^"']*)["']\s*\)/g,
    ),
  ].map((m) => m[1] ?? m[2]);
}

describe("architecture", () => {
  it("reads a file's package imports (the rules below depend on it)", () => {
    expect(packagesOf("src/store/session-index.ts")).toContain("node:fs/promises");
    expect(packagesOf("components/app/App.tsx")).toEqual(expect.arrayContaining(["ink", "react"]));
  });

  it("has no import cycles between files", async () => {
    expect((await graph()).circular()).toEqual([]);
  });

  it("has no cycles between folders: no folder imports one that imports it back", async () => {
    const deps = (await graph()).obj();
    const edges = new Map<string, Set<string>>();
    for (const [file, imports] of Object.entries(deps)) {
      for (const i of imports) {
        const [a, b] = [dirname(file), dirname(i)];
        if (a !== b) edges.set(a, (edges.get(a) ?? new Set()).add(b));
      }
    }
    // A folder that reaches itself again through its imports is on a cycle.
    const onCycle: string[] = [];
    for (const start of edges.keys()) {
      const seen = new Set<string>();
      const todo = [...(edges.get(start) ?? [])];
      while (todo.length) {
        const f = todo.pop()!;
        if (f === start) {
          onCycle.push(start);
          break;
        }
        if (seen.has(f)) continue;
        seen.add(f);
        todo.push(...(edges.get(f) ?? []));
      }
    }
    expect(onCycle.sort()).toEqual([]);
  });

  it("keeps src/ free of UI: nothing under src/ imports components/, ink or react", async () => {
    const deps = (await graph()).obj();
    const offenders = Object.entries(deps).flatMap(([file, imports]) => {
      if (!file.startsWith("src/")) return [];
      const ui = imports.filter((i) => i.startsWith("components/"));
      const pkgs = packagesOf(file).filter((p) => /^(ink|react|fullscreen-ink|ink-select-input)(\/|$)/.test(p));
      return [...ui, ...pkgs].map((i) => `${file} → ${i}`);
    });
    expect(offenders).toEqual([]);
  });

  it("keeps I/O out of the browser's state: its reducers and state modules import no node:fs or child_process", async () => {
    const deps = (await graph()).obj();
    const stateFiles = Object.keys(deps).filter(
      (f) => f.startsWith("src/browser/") && !/Runner\.ts$|Effects\.ts$|effectRunner\.ts$|keyStream\.ts$/.test(f),
    );
    const offenders = stateFiles.flatMap((f) =>
      packagesOf(f)
        .filter((p) => /^(node:)?(fs|fs\/promises|child_process)$/.test(p))
        .map((p) => `${f} → ${p}`),
    );
    expect(offenders).toEqual([]);
  });

  it("components/ holds what draws: every file there is a component, a hook, or a pure helper beside the component that uses it", async () => {
    const deps = (await graph()).obj();
    // Not components: the browser's state, keys and effects live in src/browser.
    const misplaced = Object.keys(deps).filter(
      (f) => f.startsWith("components/") && /(Reducer|State|Effects|Runner)\.ts$/.test(f),
    );
    expect(misplaced).toEqual([]);
  });

  it("one writer for what a command prints: nothing under src/cli writes to the process or its io but output.ts", () => {
    const writer = new Set(["src/cli/common/output.ts", "src/cli/common/io.ts"]);
    const files = [
      ...readdirSync(join(ROOT, "src", "cli"), { recursive: true, encoding: "utf8" })
        .map((f) => `src/cli/${f}`)
        .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !writer.has(f)),
      "components/app/browseCommand.ts",
    ];
    expect(files).toEqual(expect.arrayContaining(["src/cli/commands/search.ts", "src/cli/main.ts"]));
    const offenders = files.flatMap((f) =>
      [
        ...readFileSync(join(ROOT, f), "utf8").matchAll(/\bconsole\.\w+|\.(?:stdout|stderr|stdoutBytes)\b(?!\?*:)/g),
      ].map((m) => `${f}: ${m[0]}`),
    );
    expect(offenders).toEqual([]);
  });
});
