import { useRef } from "react";
import type { Window } from "./layout.js";
import { visibleWindowVar } from "./variableWindow.js";

/** visibleWindowVar with the previous top remembered between renders. */
export function useVariableWindow(
  heightOf: (i: number) => number,
  total: number,
  cursor: number,
  height: number,
  scrollOff = 2,
): Window {
  const prevTop = useRef(0);
  const w = visibleWindowVar(heightOf, total, cursor, height, prevTop.current, scrollOff);
  prevTop.current = w.top;
  return w;
}
