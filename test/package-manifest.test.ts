import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "./helpers/tmp-store.js";

/*
 * The pi package's manifest: pi is an optional peer, named as pi 1.6.0 (the reference) is
 * published; the old name stays only as the devDependency the interop tests run (0.73.1).
 */
const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as Record<
  string,
  Record<string, unknown> | undefined
>;

describe("package.json", () => {
  it("names pi 1.6.0's package as its optional peer, and no other", () => {
    expect(manifest.peerDependencies).toEqual({ "@earendil-works/pi-coding-agent": "*" });
    expect(manifest.peerDependenciesMeta).toEqual({ "@earendil-works/pi-coding-agent": { optional: true } });
  });

  it("keeps pi 0.73.1 as the oracle devDependency", () => {
    expect(manifest.devDependencies?.["@mariozechner/pi-coding-agent"]).toBe("0.73.1");
  });
});
