// Reads that fail as a disk's would (EIO) while discovery still stats the file: for the tests
// of what is kept after a read failed. A test mocks the line reader with it:
//   vi.mock("../src/store/line-reader.js", async (real) =>
//     (await import("./helpers/failing-reads.js")).failingLineReader(await real()));

/** Per path, how many more reads pass before each read of it fails; a path not here always reads. */
export const failing = new Map<string, number>();

function eio(path: string): void {
  const left = failing.get(path);
  if (left === undefined) return;
  if (left > 0) return void failing.set(path, left - 1);
  throw Object.assign(new Error(`EIO: i/o error, read '${path}'`), { code: "EIO" });
}

type LineReader = typeof import("../../src/store/line-reader.js");

/** The line reader with its reads of the paths in `failing` failing. */
export function failingLineReader(real: LineReader): LineReader {
  return {
    ...real,
    readLines: ((path: string, ...rest: unknown[]) => {
      eio(path);
      return (real.readLines as (...a: unknown[]) => unknown)(path, ...rest);
    }) as LineReader["readLines"],
    readLinesSync: ((path: string, ...rest: unknown[]) => {
      eio(path);
      return (real.readLinesSync as (...a: unknown[]) => unknown)(path, ...rest);
    }) as LineReader["readLinesSync"],
  };
}
