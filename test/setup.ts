// React's act() needs this flag to flush effects deterministically in tests.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// ink treats any CI value as "render only the last frame"; tests want every frame.
delete process.env.CI;
// The programs tests start keep their compile cache (src/launcher) out of the user's home.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
if (!process.env.PI_SESSIONS_CACHE_DIR) {
  const cache = mkdtempSync(join(tmpdir(), "pi-sessions-test-cache-"));
  process.env.PI_SESSIONS_CACHE_DIR = cache;
  // One per test file: gone with it, so a run leaves nothing in the temp folder.
  afterAll(() => {
    rmSync(cache, { recursive: true, force: true });
    if (process.env.PI_SESSIONS_CACHE_DIR === cache) delete process.env.PI_SESSIONS_CACHE_DIR;
  });
}
