import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir } from "../../test/helpers/tmp-store.js";
import { quickProbe } from "./quick-probe.js";
import { cwdFolderName } from "./scope.js";

afterAll(cleanupTmp);

function store(cwd: string, n: number): string {
  const root = makeTmpDir();
  const dir = join(root, cwdFolderName(cwd));
  mkdirSync(dir);
  writeFileSync(join(dir, "broken.jsonl"), "not json\n");
  utimesSync(join(dir, "broken.jsonl"), 1, 1); // the oldest
  for (let i = 0; i < n; i++) {
    const id = `01a1fcb4-0000-7000-8000-${String(i).padStart(12, "0")}`;
    const header = { type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd };
    writeFileSync(join(dir, `s${i}.jsonl`), JSON.stringify(header) + "\n");
  }
  mkdirSync(join(root, "--other--"));
  writeFileSync(
    join(root, "--other--", "x.jsonl"),
    JSON.stringify({ type: "session", version: 3, id: "other", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/other" }) +
      "\n",
  );
  return root;
}

describe("quickProbe", () => {
  it("probes only the launch folder's project folder, at most `limit` files, damaged ones left to the full scan", async () => {
    const root = store("/p/q", 5);
    const probes = await quickProbe(root, "/p/q");
    expect(probes.map((p) => p.id).sort()).toEqual(
      [0, 1, 2, 3, 4].map((i) => `01a1fcb4-0000-7000-8000-${String(i).padStart(12, "0")}`),
    );
    expect(await quickProbe(root, "/p/q", 2)).toHaveLength(2);
    expect(await quickProbe(root, "/nowhere")).toEqual([]);
  });
});
