/** The reader's one I/O: loading the session's (skimmed) index. A leaf, so the app's effect list can name it. */
export type ReaderEffect = { type: "reader.load"; path: string; seq: number };

export function isReaderEffect(e: { type: string }): e is ReaderEffect {
  return e.type === "reader.load";
}
