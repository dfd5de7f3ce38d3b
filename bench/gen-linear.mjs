#!/usr/bin/env node
// One linear session (no branches) of N entries for the reader benchmark:
//   node bench/gen-linear.mjs --out FILE [--entries 50000] [--big-output-mb 20]
// Turns of user → assistant (thinking, Markdown, a tool call) → tool result (heavy-tailed
// size, as gen-store.mjs) → assistant text. Near the end, one tool output of
// --big-output-mb MB. Deterministic (seeded).
import { createWriteStream } from "node:fs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
if (!args.out) {
  console.error("usage: node bench/gen-linear.mjs --out FILE [--entries N] [--big-output-mb MB]");
  process.exit(2);
}
const N = Number(args.entries ?? 50_000);
const BIG = Number(args["big-output-mb"] ?? 20) * 1024 * 1024;
let seed = 12345;
const rnd = () => {
  seed ^= seed << 13;
  seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  seed >>>= 0;
  return seed / 4294967296;
};
const WORDS =
  "refactor auth module parser tree branch resume label session store index cache render 函数 重构 会话 分支 🚀 ✅ naïve café".split(
    " ",
  );
const sentence = (n) => Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(" ");
const toolSize = () => Math.floor(Math.min(400_000, 80 * Math.exp(rnd() * 8.5)));

const ws = createWriteStream(args.out);
const write = async (o) => {
  if (!ws.write(`${JSON.stringify(o)}\n`)) await new Promise((r) => ws.once("drain", r));
};
const t0 = Date.parse("2026-01-01T00:00:00Z");
await write({
  type: "session",
  version: 3,
  id: "019e0000-0000-7000-8000-00000000beef",
  timestamp: new Date(t0).toISOString(),
  cwd: "/home/dev/src/reader-bench",
});
// The tool result of the second-to-last turn.
const bigAt = (Math.floor(N / 4) - 2) * 4 + 2;
let prev = null;
for (let i = 0; i < N; i++) {
  const id = (0x10000000 + i).toString(16);
  const timestamp = new Date(t0 + (i + 1) * 1000).toISOString();
  const base = { type: "message", id, parentId: prev, timestamp };
  const turn = i % 4;
  let message;
  if (turn === 0) message = { role: "user", content: sentence(25), timestamp: t0 + i };
  else if (turn === 1)
    message = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: sentence(60) },
        {
          type: "text",
          text: `## ${sentence(3)}\n\n- ${sentence(20)}\n- ${sentence(12)}\n\n\`\`\`ts\nconst x = ${i};\n\`\`\``,
        },
        { type: "toolCall", id: `call_${i}`, name: "bash", arguments: { command: `npm test -- ${i}` } },
      ],
      model: "claude-sonnet-4-5",
      stopReason: "toolUse",
      timestamp: t0 + i,
    };
  else if (turn === 2) {
    const size = i === bigAt ? BIG : toolSize();
    const line = `${sentence(8)}\n`;
    message = {
      role: "toolResult",
      toolCallId: `call_${i - 1}`,
      toolName: "bash",
      content: [{ type: "text", text: line.repeat(Math.max(1, Math.ceil(size / line.length))) }],
      isError: false,
      timestamp: t0 + i,
    };
  } else
    message = {
      role: "assistant",
      content: [{ type: "text", text: sentence(60) }],
      model: "claude-sonnet-4-5",
      stopReason: "stop",
      timestamp: t0 + i,
    };
  await write({ ...base, message });
  prev = id;
}
await new Promise((r) => ws.end(r));
console.log(JSON.stringify({ out: args.out, entries: N }));
