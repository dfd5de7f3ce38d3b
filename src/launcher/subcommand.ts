/**
 * Whether the program's first argument names a subcommand (`list`, `search`, …, or an
 * unknown word, which the command line refuses): any first word that is no option. The
 * launcher loads the command line's own bundle for one (src/bin.ts), and the command line
 * runs one (src/cli/main.ts); anything else opens the browser. One rule for both, so a
 * subcommand never lands in a bundle without it, nor the browser in one without the UI.
 */
export function isSubcommand(first: string | undefined): first is string {
  return first !== undefined && !first.startsWith("-");
}
