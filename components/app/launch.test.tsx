import { afterEach, describe, expect, it, vi } from "vitest";
import { runBrowser } from "./launch.js";

afterEach(() => vi.restoreAllMocks());

/* The launcher's full path runs in the pseudo-terminal tests (test/e2e); here, its refusal. */
describe("runBrowser", () => {
  it("refuses without an interactive terminal on stdin, saying what to use instead (exit 2)", async () => {
    const isTTY = process.stdin.isTTY;
    Object.defineProperty(process.stdin, "isTTY", { value: false, configurable: true });
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const code = await runBrowser({
        storeDir: "/nowhere",
        storeLabel: "/nowhere",
        cwd: "/",
        all: false,
        print: false,
        piCommand: "pi",
      });
      expect(code).toBe(2);
      expect(String(err.mock.calls[0]?.[0])).toMatch(/needs an interactive terminal on stdin[\s\S]*pi-sessions list/);
    } finally {
      Object.defineProperty(process.stdin, "isTTY", { value: isTTY, configurable: true });
    }
  });
});
