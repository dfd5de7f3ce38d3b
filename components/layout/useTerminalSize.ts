import { useStdout } from "ink";
import { useEffect, useState } from "react";

export interface TerminalSize {
  columns: number;
  rows: number;
}

/** ink-testing-library's stdout has no rows; tests get this unless they define one. */
export const FALLBACK_SIZE: TerminalSize = { columns: 100, rows: 30 };

function read(stdout: NodeJS.WriteStream): TerminalSize {
  return { columns: stdout.columns || FALLBACK_SIZE.columns, rows: stdout.rows || FALLBACK_SIZE.rows };
}

/** The size of the stream ink draws on, updated on every resize. */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => read(stdout));
  useEffect(() => {
    const onResize = () =>
      setSize((prev) => {
        const next = read(stdout);
        return next.columns === prev.columns && next.rows === prev.rows ? prev : next;
      });
    stdout.on("resize", onResize);
    onResize();
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout]);
  return size;
}
