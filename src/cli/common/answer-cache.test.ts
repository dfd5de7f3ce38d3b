import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupTmp, makeTmpDir } from "../../../test/helpers/tmp-store.js";
import { openStoreIndex } from "../../index/store-index.js";
import { AnswerCache } from "./answer-cache.js";

afterEach(() => cleanupTmp());

function open() {
  const index = openStoreIndex(makeTmpDir(), (m) => expect.fail(m), { path: join(makeTmpDir(), "index.sqlite") })!;
  return index;
}

const answer = (text: string) => ({ out: Buffer.from(text), err: "" });

describe("kept answers", () => {
  it("are served only for the same key and the same store", () => {
    const index = open();
    const cache = new AnswerCache(index.db);
    cache.put("list", "fp1", answer("[1]"));
    expect(Buffer.from(cache.get("list", "fp1")!.out).toString()).toBe("[1]");
    expect(cache.get("list", "fp2")).toBeUndefined();
    expect(cache.get("search rows", "fp1")).toBeUndefined();
    index.close();
  });

  it("are kept only once two runs in a row saw the same store", () => {
    const index = open();
    const cache = new AnswerCache(index.db);
    expect(cache.settled("list", "fp1")).toBe(false);
    expect(cache.settled("list", "fp2")).toBe(false);
    expect(cache.settled("list", "fp2")).toBe(true);
    index.close();
  });

  it("of another build are dropped when one is kept (an upgrade leaves none behind)", () => {
    const index = open();
    const cache = new AnswerCache(index.db);
    cache.put("list", "fp1", answer("[1]"));
    // An answer an older build kept: its key starts with that build's stamp.
    index.db.sql
      .prepare("INSERT INTO answers(key, fingerprint, out, err) VALUES(?, ?, ?, ?)")
      .run("1:2\0list", "fp1", Buffer.from("[old]"), "");
    const count = () => (index.db.sql.prepare("SELECT count(*) AS n FROM answers").get() as { n: number }).n;
    expect(count()).toBe(2);
    cache.put("search rows", "fp1", answer("{}"));
    expect(count()).toBe(2);
    expect(Buffer.from(cache.get("list", "fp1")!.out).toString()).toBe("[1]");
    expect(Buffer.from(cache.get("search rows", "fp1")!.out).toString()).toBe("{}");
    index.close();
  });
});
