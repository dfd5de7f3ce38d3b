import { describe, expect, it } from "vitest";
import { inflateRawSync, deflateRawSync } from "node:zlib";
import { freeBytes } from "./free-bytes.js";

describe("freeBytes", () => {
  it("empties a buffer that is all of its memory", () => {
    const b = Buffer.alloc(1 << 20, 1);
    freeBytes(b);
    expect(b.length).toBe(0);
    expect(b.buffer.byteLength).toBe(0);
  });

  it("empties zlib's output made to its length (one byte more)", () => {
    const text = Buffer.alloc(200_000, 97);
    const out = inflateRawSync(deflateRawSync(text), { chunkSize: text.length + 1 });
    expect(out.equals(text)).toBe(true);
    freeBytes(out);
    expect(out.length).toBe(0);
  });

  it("leaves a view into a larger buffer, and a small (pooled) buffer, as they are", () => {
    const big = Buffer.alloc(1 << 20, 2);
    const view = big.subarray(1000, 500_000);
    freeBytes(view);
    freeBytes(big.subarray(0, 100_000));
    expect(view.length).toBe(499_000);
    expect(big.length).toBe(1 << 20);
    const small = Buffer.from("pooled");
    const neighbour = Buffer.from("another");
    freeBytes(small);
    expect(small.toString()).toBe("pooled");
    expect(neighbour.toString()).toBe("another");
  });

  it("leaves a buffer that cannot be detached (a WebAssembly memory's) as it is, without throwing", () => {
    const wasm = Buffer.from(new WebAssembly.Memory({ initial: 1 }).buffer);
    expect(() => freeBytes(wasm)).not.toThrow();
    expect(wasm.length).toBe(1 << 16);
  });
});
