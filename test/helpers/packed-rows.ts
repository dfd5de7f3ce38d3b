import { eachPacked, noRows, type PackedRows, type TextRows } from "../../src/index/text-rows.js";

/** Rows packed by a text reader (RowPacker), back as columns of strings, to compare with rows read here. */
export function unpackRows(buf: Buffer, packed: PackedRows): TextRows {
  const rows = noRows();
  eachPacked(
    buf,
    packed,
  )((off, len, tool, text) => {
    rows.offs.push(off);
    rows.lens.push(len);
    rows.tools.push(tool);
    rows.texts.push(text.toString());
  });
  rows.chars = packed.chars;
  return rows;
}
