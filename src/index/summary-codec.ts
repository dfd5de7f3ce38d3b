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
  // In place: ten thousand copies of every summary at launch are measurable.
  const s = JSON.parse(text) as Record<string, unknown>;
  s.created = new Date((s.created as number | null) ?? NaN);
  s.modified = new Date((s.modified as number | null) ?? NaN);
  return s as unknown as SessionSummary;
}

export function encodeDiagnostic(d: Diagnostic): string {
  return JSON.stringify(d);
}

export function decodeDiagnostic(text: string): Diagnostic {
  return JSON.parse(text) as Diagnostic;
}
