export const MAIN_HELP = `pi-sessions — browse, search, resume, fork, label, rename and delete pi sessions

Usage:
  pi-sessions [-a|--all] [--print] [options]  open the full-screen browser
  pi-sessions list [-a|--all] [--cwd PATH] [--json] [--sort KEY] [-q|--quiet]
  pi-sessions list --skipped [--json]
  pi-sessions search <query...> [-a|--all] [--cwd PATH] [--json] [-n|--limit N] [--tools] [-q]
  pi-sessions show <session> [--json] [-q]
  pi-sessions stats [-a|--all] [--by day|folder|model] [--since DATE] [--json] [-q]
  pi-sessions export <session> [--format md|html|jsonl] [--branch ENTRY] [--all-branches] [-o FILE [--force]] [-q]
  pi-sessions rename <session> <name> [-q]
  pi-sessions label <session> <entryId> [label] [-q]
  pi-sessions delete <session...> [--permanent] [--yes] [-q]
  pi-sessions restore <session | --last> [-q]
  pi-sessions index [--status [--json] | --rebuild] [-q]
  pi-sessions config [--path] [-q]
  pi-sessions serve --stdio                    what another machine runs here over ssh

<session> is a file path, a session id, or a unique id prefix; HOST:PATH, or an id with
--host HOST, is a session on another machine (list, search, stats, show, export, rename,
label, delete and restore take --host NAME, repeatable for list, search and stats).

Options:
  --session-dir DIR   the session store (default: $PI_CODING_AGENT_SESSION_DIR,
                      $PI_CODING_AGENT_DIR/sessions, ~/.pi/agent/sessions)
  -a, --all           all folders instead of the current one
  --print             picker: print the chosen session's path and exit
  --pi-command CMD    the pi executable to resume with (default: $PI_SESSIONS_PI or pi)
  --after-pi exit|return
                      when a pi started from the browser exits: end with its status,
                      or come back to the browser (default: the config's "afterPi",
                      else exit; --print always ends)
  --config FILE       settings (default: $XDG_CONFIG_HOME/pi-sessions/config.json)
  --query TEXT        start with this search
  --host NAME         (repeatable) another machine's sessions too, over ssh NAME (the
                      browser also reads the config's "hosts"); see "Several machines"
  -q, --quiet         (commands) nothing on stderr but an error that ends the command
  -h, --help          help (also: pi-sessions <command> --help)
  -v, --version       version

Exit codes: 0 success, 1 error, 2 bad usage, 130 cancelled (Ctrl+C in the browser, or a pick given up).
`;

export const COMMAND_HELP: Record<string, string> = {
  list: `Usage: pi-sessions list [-a|--all] [--cwd PATH] [--json] [--sort recent|created|name|messages|size] [-q|--quiet]
       pi-sessions list --skipped [--json]

Lists sessions whose header cwd is the current folder (or --cwd PATH); --all lists every
session. --json prints one JSON array of session objects (dates as ISO strings).
Files that are not sessions are reported on stderr (--quiet: not).
--skipped lists instead every file of the store that is not listed, and why
(the browser's "N files skipped"); with --json as [{ path, kind, reason }].
`,
  search: `Usage: pi-sessions search <query...> [-a|--all] [--cwd PATH] [--json] [-n|--limit N] [--tools] [-q]

Finds sessions by what was said in them, with the browser's search grammar: words (all must
occur, anywhere in the session), "a phrase", re:PATTERN, a word with a capital letter matches
case, 'word exactly; fields (cwd: model: label: name:) and dates (after:DAY before:DAY today 7d).
This folder's sessions, or --all, or --cwd PATH. The best first (name hits, then text hits,
then how many entries hold the terms, then the newest), at most N (20); each with up to three
snippets, the hit marked. --tools searches tool calls and output too.
--json: [{ path, id, name, cwd, modified, score, snippets: [{ entryId, role, text, match }] }].
Exit status 1 when nothing matches. Uses the index (pi-sessions index --help).
`,
  index: `Usage: pi-sessions index [--status [--json] | --rebuild] [--session-dir DIR] [-q]

The persistent index: each session's facts and searchable text, kept in the user's cache
folder ($XDG_CACHE_HOME/pi-sessions/index/, or $PI_SESSIONS_CACHE_DIR/index/), one file per
store. Launches and searches read only the sessions that changed since. It is only a cache:
a damaged or out-of-date index is rebuilt, and PI_SESSIONS_INDEX=0 turns it off.
  (none)     bring it up to date now (the browser does this in the background)
  --status   where it is, its size, how many sessions it holds (and whose text), when it was
             last written
  --rebuild  delete it and build it again
`,
  show: `Usage: pi-sessions show <path | id | unique id prefix> [--json] [-q]

Shows a session's header, name, leaf, active path, labels and entries.
`,
  stats: `Usage: pi-sessions stats [-a|--all] [--cwd PATH] [--by day|folder|model] [--since YYYY-MM-DD|today|Nd] [--json] [-q]

Tokens and cost of this folder's sessions (or --all, or --cwd PATH), by pi's /session rule
(every usage a file records, on every branch), per local day (the default), folder or model.
Each usage counts on the day of its own entry and for the model its entry names, else the
model in use at that point of the file. --since counts usage from that local day on.
--json prints exact sums (tokens and dollars, unrounded), shaped like show --json's usage.
`,
  export: `Usage: pi-sessions export <session> [--format md|html|jsonl] [--branch ENTRY] [--all-branches] [-o FILE [--force]] [-q]

Writes a session's conversation to stdout (also with -o -), or to FILE with -o (never over an
existing file unless --force, and never over a pi session file); -q says nothing on stderr:
  md     Markdown of the active branch (default)
  html   one self-contained page (no scripts, nothing loaded from the network; light or dark
         as the system is set)
  jsonl  the branch as a new session file pi opens (a new session id, as pi's /export writes)
Without --format the format follows FILE's extension (.md, .html, .jsonl).
--branch ENTRY       the branch through that entry: the active one if ENTRY is on it, else
                     down to the newest leaf below ENTRY
--all-branches       every branch (md, html), the active one first, each marked once with
                     where it branches off
`,
  rename: `Usage: pi-sessions rename <session> <name> [-q]

Appends a session_info entry as pi does (newlines become spaces, trimmed).
An empty name ("") clears the name.
`,
  label: `Usage: pi-sessions label <session> <entryId> [label] [-q]

Appends a label entry as pi does. Without a label, clears the entry's label.
`,
  delete: `Usage: pi-sessions delete <session...> [--permanent] [--yes] [-q]

Moves sessions to the trash (freedesktop.org Trash: $XDG_DATA_HOME/Trash, or the volume's
.Trash-$uid), as one batch that \`pi-sessions restore --last\` brings back, run on the same
store (it prints the command, with --session-dir when the store needs it). Asks first;
without a terminal, --yes is required. --permanent deletes without the trash, after
typing "delete" (or with --yes).
`,
  config: `Usage: pi-sessions config [--path] [--config FILE] [-q]

Prints the settings in effect (with a warning line for anything invalid), or with
--path where the config file is: --config, else $XDG_CONFIG_HOME/pi-sessions/config.json,
else ~/.config/pi-sessions/config.json.
`,
  serve: `Usage: pi-sessions serve --stdio [--session-dir DIR]

What \`pi-sessions --host NAME\` on another machine runs here, over ssh: it answers that
machine's requests (list, search, read, rename, label, delete, restore, …) on this machine's
store, as JSON lines on its standard input and output, until its input ends. It opens no
port and keeps nothing running.
`,
  restore: `Usage: pi-sessions restore <session | --last> [-q]

Puts back, at its exact original path, a session that pi-sessions moved to the trash
(by id, id prefix, path or file name), or the whole last batch with --last. Refuses if
a file now exists at that path.
`,
};
