import { useRef } from "react";
import { visibleWindow, type Window } from "./layout.js";

/** visibleWindow with the previous top remembered between renders. */
export function useVisibleWindow(total: number, cursor: number, height: number, scrollOff = 2): Window {
  const prevTop = useRef(0);
  const w = visibleWindow(total, cursor, height, prevTop.current, scrollOff);
  prevTop.current = w.top;
  return w;
}
