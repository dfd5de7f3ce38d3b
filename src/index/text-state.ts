/** A file's text state as the index has it: what its indexed text was read from, and how much of it. */
export interface FileTextState {
  fid: number;
  path: string;
  text_size: number | null;
  text_mtime: number | null;
  text_ctime: number | null;
  text_whole: number;
  text_tools: number;
}

/**
 * A text state as kept between searches (every file's, for as long as the index is unchanged).
 * node:sqlite makes each row a dictionary-mode object (~470 bytes of heap: at 50,000 sessions
 * 23 MB, the browser's largest holder after the summaries, which its heap's growth policy
 * multiplies); an instance of this class has the same fields in a few words.
 */
export class KeptTextState implements FileTextState {
  readonly fid: number;
  readonly path: string;
  readonly text_size: number | null;
  readonly text_mtime: number | null;
  readonly text_ctime: number | null;
  readonly text_whole: number;
  readonly text_tools: number;

  constructor(row: FileTextState) {
    this.fid = row.fid;
    this.path = row.path;
    this.text_size = row.text_size;
    this.text_mtime = row.text_mtime;
    this.text_ctime = row.text_ctime;
    this.text_whole = row.text_whole;
    this.text_tools = row.text_tools;
  }
}
