// Child process for bench/reader.mjs: open one session in the transcript reader's model
// (dist/src) and time each step. Prints one JSON line.
//   node bench/reader-child.mjs FILE
const file = process.argv[2];
const t = [performance.now()];
const lap = () => t.push(performance.now()) && t[t.length - 1] - t[t.length - 2];
const { loadSessionIndex } = await import("../dist/src/store/session-index.js");
const { activePath } = await import("../dist/src/model/tree.js");
const { lazyBlocks } = await import("../dist/src/transcript/lazy.js");
const { Transcript } = await import("../dist/src/transcript/transcript.js");
const { searchTranscript } = await import("../dist/src/transcript/search.js");
const importMs = lap();
const index = await loadSessionIndex(file, { skim: true });
const indexMs = lap();
const blocks = lazyBlocks(index, activePath(index));
const blocksMs = lap();
const transcript = new Transcript(blocks, { width: 120 });
const screen = transcript.window(transcript.tail(40), 40);
const screenMs = lap();
const openMs = blocksMs + screenMs;
const laidOut = transcript.laidOutCount;
// The biggest tool output on screen's neighbourhood: expanded (truncated), then in full.
let big = -1;
for (let i = blocks.length - 1; i >= Math.max(0, blocks.length - 64) && big < 0; i--) {
  const b = blocks.kind(i) === "tool" ? blocks.get(i) : null;
  if (b && b.bytes && b.bytes > 10 * 1024 * 1024) big = i;
}
const collapsedLine = big >= 0 ? transcript.lines(big)[0].text : "";
lap();
transcript.cycleTool(big);
const truncatedLines = transcript.lines(big).length;
const truncatedMs = lap();
transcript.cycleTool(big);
const fullLines = transcript.lines(big).length;
const fullMs = lap();
transcript.cycleTool(big);
transcript.lines(big);
let pos = transcript.tail(40);
for (let i = 0; i < 100; i++) pos = transcript.move(pos, -40);
const pageUpMs = lap() / 100;
const matches = searchTranscript(transcript, "naïve").length;
const searchMs = lap();
process.stdout.write(
  `${JSON.stringify({ entries: index.nodes.length, blocks: blocks.length, laidOut, screenLines: screen.length, collapsedLine, truncatedLines, fullLines, matches, importMs, indexMs, blocksMs, screenMs, openMs, truncatedMs, fullMs, pageUpMs, searchMs })}\n`,
);
