import madge from "madge";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");

async function graph() {
  const res = await madge([join(ROOT, "src"), join(ROOT, "components")], {
    baseDir: ROOT,
    fileExtensions: ["ts", "tsx"],
    tsConfig: join(ROOT, "tsconfig.json"),
    excludeRegExp: [/\.test\.tsx?$/],
  });
  return res;
}

describe("architecture", () => {
  it("has no import cycles (reducers share a leaf state module)", async () => {
    expect((await graph()).circular()).toEqual([]);
  });
  it("keeps src/ free of UI: nothing under src/ imports components/", async () => {
    const deps = (await graph()).obj();
    const offenders = Object.entries(deps).flatMap(([file, imports]) => (file.startsWith("src/") ? imports.filter((i) => i.startsWith("components/")).map((i) => `${file} → ${i}`) : []));
    expect(offenders).toEqual([]);
  });
});
