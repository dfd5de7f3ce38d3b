import type { Diagnostic, SessionSummary } from "../model/types.js";

/*
 * A summary as the index keeps it: JSON, with the two dates as epoch milliseconds (an
 * invalid date as null) so they come back as the very same Date values.
 */

type Stored = Omit<SessionSummary, "created" | "modified"> & { created: number | null; modified: number | null };

const ms = (d: Date) => (Number.isNaN(d.getTime()) ? null : d.getTime());

export function encodeSummary(s: SessionSummary): string {
  const stored: Stored = { ...s, created: ms(s.created), modified: ms(s.modified) };
  return JSON.stringify(stored);
}

export function decodeSummary(text: string): SessionSummary {
  return reviveSummary(JSON.parse(text) as object);
}

/** A parsed stored summary made a summary again, in place (ten thousand copies at launch are measurable). */
export function reviveSummary(parsed: object): SessionSummary {
  const s = parsed as Record<string, unknown>;
  // Epoch milliseconds as stored; an ISO string or a Date if it was serialized as one.
  s.created = new Date((s.created as number | string | null) ?? NaN);
  s.modified = new Date((s.modified as number | string | null) ?? NaN);
  return s as unknown as SessionSummary;
}

/** A summary as stored, but as an object (for a snapshot of many, stringified at once). */
export function storedSummary(s: SessionSummary): object {
  return { ...s, created: ms(s.created), modified: ms(s.modified) };
}

export function encodeDiagnostic(d: Diagnostic): string {
  return JSON.stringify(d);
}

export function decodeDiagnostic(text: string): Diagnostic {
  return JSON.parse(text) as Diagnostic;
}
