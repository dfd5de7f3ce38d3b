import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.{ts,tsx}", "src/**/*.test.ts", "components/**/*.test.{ts,tsx}"],
    environment: "node",
    setupFiles: ["test/setup.ts"],
    // A ceiling for a stuck test, not a target: a loaded machine runs the pty tests 5× slower.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: keep the pty tests from fighting each other for the CPU.
    maxWorkers: 2,
  },
});
