/** pi 1.5.2's own floor: every pi user has it, and the program relies on its APIs. */
export const NODE_FLOOR = [22, 19] as const;

/** The one line to print on an older Node, or undefined when `version` ("v22.20.0") is new enough. */
export function nodeTooOld(version: string): string | undefined {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  const [fMajor, fMinor] = NODE_FLOOR;
  if (major > fMajor || (major === fMajor && minor >= fMinor)) return undefined;
  return `pi-sessions needs Node.js ${fMajor}.${fMinor} or later (this is ${version}); pi itself needs the same.`;
}
