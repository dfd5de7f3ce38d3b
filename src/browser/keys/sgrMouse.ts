/*
 * Mouse reports in the SGR encoding (xterm's mode 1006), which the app turns on with
 * button reporting (mode 1000): ESC [ < b ; x ; y M on a press, …m on a release. They
 * arrive through the key tokenizer as one CSI sequence each and must never be read as
 * keys. With Shift held the terminal keeps the mouse for its own text selection and
 * reports nothing.
 */

/** Turn reporting on / off (written with the alternate screen, undone on every way out). */
export const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";
export const MOUSE_OFF = "\x1b[?1006l\x1b[?1000l";

export interface MouseEvent {
  kind: "press" | "release" | "wheel";
  /** 0 left, 1 middle, 2 right (press and release); wheel: -1 up, 1 down. */
  button: number;
  /** 0-based cell. */
  x: number;
  y: number;
}

const SGR = /^\x1b\[<(\d+);(\d+);(\d+)([Mm])$/;

export function isMouseSequence(seq: string): boolean {
  return seq.startsWith("\x1b[<") && SGR.test(seq);
}

/** The event a report means; null for one the app does not use (motion, extra buttons). */
export function parseMouse(seq: string): MouseEvent | null {
  const m = SGR.exec(seq);
  if (!m) return null;
  const code = Number(m[1]);
  const x = Number(m[2]) - 1;
  const y = Number(m[3]) - 1;
  // Bits 2–4 are Shift, Alt and Ctrl; 32 is motion; 64 the wheel.
  if (code & 32) return null;
  const base = code & ~(4 | 8 | 16);
  if (base & 64) {
    const b = base & 3;
    return b === 0 || b === 1 ? { kind: "wheel", button: b === 0 ? -1 : 1, x, y } : null;
  }
  if (base > 2) return null;
  return { kind: m[4] === "M" ? "press" : "release", button: base, x, y };
}

/**
 * Whether the app acts on a report (components/mouse/useMouse.ts): a left press (a click)
 * or the wheel. A release, a right or middle click come to nothing.
 */
export function mouseActs(ev: MouseEvent | null): ev is MouseEvent {
  return ev !== null && (ev.kind === "wheel" || (ev.kind === "press" && ev.button === 0));
}
