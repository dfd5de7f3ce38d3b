import { useScreenSize } from "fullscreen-ink";

export interface TerminalSize {
  columns: number;
  rows: number;
}

/** ink-testing-library's stdout has no rows; tests get this unless they define one. */
export const FALLBACK_SIZE: TerminalSize = { columns: 100, rows: 30 };

/** The size of the stream Ink draws on (fullscreen-ink's hook), updated on every resize. */
export function useTerminalSize(): TerminalSize {
  const { width, height } = useScreenSize();
  return { columns: width || FALLBACK_SIZE.columns, rows: height || FALLBACK_SIZE.rows };
}
