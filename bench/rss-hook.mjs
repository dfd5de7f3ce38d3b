// Fallback peak-RSS probe when GNU time is missing: `node --import bench/rss-hook.mjs …`
// writes "<maxRSS KB> <user s> <system s>" (GNU time's "%M %U %S") to
// $PI_SESSIONS_BENCH_RSS_FILE at exit.
import { writeFileSync } from "node:fs";

const file = process.env.PI_SESSIONS_BENCH_RSS_FILE;
if (file) {
  process.on("exit", () => {
    const u = process.resourceUsage();
    writeFileSync(file, `${u.maxRSS} ${u.userCPUTime / 1e6} ${u.systemCPUTime / 1e6}\n`);
  });
}
