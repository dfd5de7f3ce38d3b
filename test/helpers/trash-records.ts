import type { TrashItem } from "../../src/browser/trash/trashTypes.js";

/** Trashed sessions for the trash view's tests: deleted 1 h, 2 d and 3 w before NOW. */
export const NOW = Date.parse("2026-11-26T12:00:00");

const rec = (n: number, title: string | undefined, deletedAt: string, bytes: number): TrashItem => ({
  original: `/home/u/.pi/agent/sessions/--home-u-proj--/2026-11-0${n}T10-00-00-000Z_s${n}.jsonl`,
  trashedFile: `/home/u/.local/share/Trash/files/2026-11-0${n}T10-00-00-000Z_s${n}.jsonl`,
  infoFile: `/home/u/.local/share/Trash/info/2026-11-0${n}T10-00-00-000Z_s${n}.jsonl.trashinfo`,
  deletedAt,
  batch: `b${n}`,
  title,
  bytes,
});

export const RECORDS: TrashItem[] = [
  { ...rec(3, "fix the flaky parser test", "2026-11-26T11:00:00", 48_213), cwd: "/home/u/proj" },
  rec(2, "refactor \x1b[31mthe\x1b[0m store", "2026-11-24T12:00:00", 2_048),
  rec(1, undefined, "2026-11-05T12:00:00", 1_200_000),
];
