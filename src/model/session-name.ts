/** pi's rule (0.80): CR/LF runs become one space, then trimmed. Empty clears the name. */
export function normalizeName(name: string): string {
  return name.replace(/[\r\n]+/g, " ").trim();
}
