/** The status line's message: the result or error of the last action, until the next key. */
export interface StatusMessage {
  text: string;
  /** info: something was done (✓); note: nothing was, and why (no mark of success); error: it failed (✗). */
  tone: "info" | "note" | "error";
}

export interface WithStatus {
  status?: StatusMessage;
}

export function say<S extends WithStatus>(s: S, text: string, tone: StatusMessage["tone"] = "info"): S {
  return { ...s, status: { text, tone } };
}
