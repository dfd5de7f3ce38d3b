// Runs in a child process under the oracle's Node (>= 22.19): loads a pi bundle (1.5.2, 1.6.0) and answers
// a batch of questions read as JSON from stdin, one answer per question, as JSON on stdout.
// pi's SessionManager.open may rewrite a file (a missing trailing newline, an old version), so
// the tests only ever point this at temp copies.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const pi = await import(pathToFileURL(process.argv[2]).href);
const { SessionManager, SettingsManager } = pi;

const info = (s) => ({
  path: s.path,
  id: s.id,
  cwd: s.cwd,
  name: s.name ?? null,
  parentSessionPath: s.parentSessionPath ?? null,
  created: s.created.toISOString(),
  modified: s.modified.toISOString(),
  messageCount: s.messageCount,
  firstMessage: s.firstMessage,
  allMessagesText: s.allMessagesText,
});

/** AgentSession.getSessionStats' token and cost rule (pi's /session), over every entry of the file. */
function sessionStats(entries) {
  const t = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
  const add = (u) => {
    t.input += u.input;
    t.output += u.output;
    t.cacheRead += u.cacheRead;
    t.cacheWrite += u.cacheWrite;
    t.cost += u.cost.total;
  };
  for (const e of entries) {
    if (e.type === "usage") add(e.usage);
    else if ((e.type === "branch_summary" || e.type === "compaction") && e.usage) add(e.usage);
    if (e.type !== "message") continue;
    if (e.message.role === "toolResult" && e.message.usage) add(e.message.usage);
    else if (e.message.role === "assistant") add(e.message.usage);
  }
  const { cost, ...tokens } = t;
  return { tokens: { ...tokens, total: t.input + t.output + t.cacheRead + t.cacheWrite }, cost };
}

const treeOf = (nodes) =>
  nodes.map((n) => ({
    id: n.entry.id,
    type: n.entry.type,
    ...(n.label ? { label: n.label } : {}),
    children: treeOf(n.children),
  }));

function describe(file, leafId) {
  const sm = SessionManager.open(file);
  // Moves the leaf in memory only (pi's /tree without writing), to read the context there.
  if (leafId) sm.branch(leafId);
  const projection = sm.buildSessionProjection();
  const labels = {};
  const walk = (nodes) => nodes.forEach((n) => (n.label && (labels[n.entry.id] = n.label), walk(n.children)));
  const tree = sm.getTree();
  walk(tree);
  return {
    header: sm.getHeader(),
    entryCount: sm.getEntries().length,
    leafId: sm.getLeafId(),
    branch: sm.getBranch().map((e) => e.id),
    name: sm.getSessionName() ?? null,
    labels,
    tree: treeOf(tree),
    contextRoles: projection.messages.map((m) => m.role),
    contextEntryIds: projection.entries.map((e) => e.sourceEntry.id),
    contextMessages: projection.messages,
    sessionStats: sessionStats(sm.getEntries()),
  };
}

/** The entries pi's /tree shows for each filter mode (its own TreeList, read through its fields). */
function treeRows(file, leafId) {
  pi.initTheme?.();
  const sm = SessionManager.open(file);
  const out = {};
  for (const mode of ["default", "no-tools", "user-only", "labeled-only", "all"]) {
    const c = new pi.TreeSelectorComponent(
      sm.getTree(),
      leafId ?? sm.getLeafId(),
      200,
      () => {},
      () => {},
      undefined,
      undefined,
      mode,
    );
    out[mode] = c.treeList.filteredNodes.map((n) => n.node.entry.id);
  }
  return out;
}

/**
 * A session written by pi's own SessionManager API, step by step. `ref` fields name an earlier
 * step's entry as "$n" (n = step index). Returns the file and each step's entry id.
 */
function write(q) {
  let sm = SessionManager.create(q.cwd, q.dir, q.id ? { id: q.id } : undefined);
  const ids = [];
  const files = [sm.getSessionFile()];
  const ref = (r) => (typeof r === "string" && r.startsWith("$") ? ids[Number(r.slice(1))] : r);
  for (const st of q.steps) {
    switch (st.do) {
      case "message":
        ids.push(sm.appendMessage(st.message));
        break;
      case "model":
        ids.push(sm.appendModelChange(st.provider, st.modelId));
        break;
      case "usage":
        ids.push(sm.appendUsage(st.kind, st.provider, st.model, st.usage, st.note).id);
        break;
      case "compaction":
        ids.push(
          sm.appendCompaction(
            st.summary,
            st.firstKept === null ? null : ref(st.firstKept),
            st.tokensBefore,
            undefined,
            false,
            st.usage,
          ),
        );
        break;
      case "branch":
        sm.branch(ref(st.ref));
        ids.push(null);
        break;
      case "branchSummary":
        ids.push(sm.branchWithSummary(ref(st.ref), st.summary, undefined, false, st.usage));
        break;
      case "contextEdit":
        ids.push(sm.appendContextEdit(ref(st.ref), st.replacement));
        break;
      case "label":
        ids.push(sm.appendLabelChange(ref(st.ref), st.label));
        break;
      case "name":
        ids.push(sm.appendSessionInfo(st.name));
        break;
      case "reopen":
        // Back to the first session (to fork it again).
        sm = SessionManager.open(files[0], q.dir);
        ids.push(null);
        break;
      case "fork":
        // pi's /fork: later steps write into the new session.
        files.push(sm.createBranchedSession(ref(st.ref)));
        ids.push(null);
        break;
      default:
        throw new Error(`unknown step ${st.do}`);
    }
  }
  return { path: files[0], files, ids };
}

/** pi's /resume picker in its threaded sort (its default): [path, depth] per row, top to bottom. */
async function threaded(agentDir) {
  const sessions = await withAgentDir(agentDir, () => SessionManager.listAll());
  const c = selector(sessions);
  for (let i = 0; i < 50 && c.sessionList.filteredSessions.length < sessions.length; i++)
    await new Promise((r) => setTimeout(r, 20));
  return c.sessionList.filteredSessions.map((n) => [n.session.path, n.depth]);
}

/** pi's /resume picker over these sessions (its callbacks do nothing: only its list is read). */
function selector(sessions) {
  pi.initTheme?.();
  const load = async () => sessions;
  const none = () => {};
  return new pi.SessionSelectorComponent(load, load, none, none, none, none);
}

/**
 * pi's /resume picker searching: for each query, the paths its session list shows (its own
 * filterSessions over listAll's sessions, in its default sort), top to bottom.
 */
async function picker(q) {
  const sessions = await withAgentDir(q.agentDir, () =>
    q.sessionDir ? SessionManager.listAll(q.sessionDir) : SessionManager.listAll(),
  );
  const list = selector(sessions).sessionList;
  for (let i = 0; i < 50 && list.allSessions.length < sessions.length; i++) await new Promise((r) => setTimeout(r, 20));
  if (list.allSessions.length < sessions.length) throw new Error("the picker did not load the sessions");
  return q.queries.map((query) => {
    list.filterSessions(query);
    return list.filteredSessions.map((n) => n.session.path);
  });
}

function withAgentDir(agentDir, fn) {
  const before = process.env.PI_CODING_AGENT_DIR;
  if (agentDir) process.env.PI_CODING_AGENT_DIR = agentDir;
  else delete process.env.PI_CODING_AGENT_DIR;
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env.PI_CODING_AGENT_DIR;
    else process.env.PI_CODING_AGENT_DIR = before;
  }
}

async function answer(q) {
  switch (q.op) {
    case "describe":
      return describe(q.file, q.leafId);
    case "treeRows":
      return treeRows(q.file, q.leafId);
    case "listAll":
      return (
        await withAgentDir(q.agentDir, () =>
          q.sessionDir ? SessionManager.listAll(q.sessionDir) : SessionManager.listAll(),
        )
      ).map(info);
    case "list":
      return (await withAgentDir(q.agentDir, () => SessionManager.list(q.cwd, q.sessionDir))).map(info);
    case "findById":
      return withAgentDir(q.agentDir, () => SessionManager.findById(q.cwd, q.id, q.sessionDir)) ?? null;
    case "fork": {
      // pi's own /fork (createBranchedSession), written into `outDir`.
      const sm = SessionManager.open(q.file, q.outDir);
      return sm.createBranchedSession(q.leafId) ?? null;
    }
    case "write":
      return write(q);
    case "threaded":
      return threaded(q.agentDir);
    case "picker":
      return picker(q);
    case "settingsSessionDir":
      return SettingsManager.create(q.cwd, q.agentDir).getSessionDir() ?? null;
    default:
      throw new Error(`unknown op ${q.op}`);
  }
}

const questions = JSON.parse(readFileSync(0, "utf8"));
const answers = [];
for (const q of questions) {
  try {
    answers.push({ ok: await answer(q) });
  } catch (err) {
    answers.push({ error: String(err?.message ?? err) });
  }
}
process.stdout.write(JSON.stringify(answers));
// pi's modules keep timers alive; the answers are written.
process.exit(0);
