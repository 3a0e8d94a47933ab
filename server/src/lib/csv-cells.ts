/*
 * Formula escaping of CSV cells (docs/security.md, "Files in and out"; OWASP "CSV Injection").
 * A spreadsheet program that opens a CSV runs a cell starting with = + - or @ as a formula
 * (`=HYPERLINK(…)` sends whatever the sheet holds wherever it points), also after a leading tab
 * or line break, and some do for the full-width ＝ ＋ － ＠. Such a cell is written with a ' in
 * front, which makes it text. The decision is by the cell's first character alone — never by a
 * pattern over the whole cell, which a line break inside the cell defeats.
 *
 * Cells that already start with ' before such a character get one more, so that reading strips
 * exactly one and every cell comes back as it was written: `=x` → `'=x` → `=x`,
 * `'=x` → `''=x` → `'=x`; a ' before anything else is left alone both ways.
 */

/** A cell a spreadsheet would run: its first character (after any ' already there) starts a formula. */
const FORMULA = /^'*[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A cell as written to a CSV file: one ' in front of a formula-starting cell. */
export function escapeCsvCell(cell: string): string {
  return FORMULA.test(cell) ? `'${cell}` : cell;
}

/** A cell as read from a CSV file: the ' that escapeCsvCell adds (or a person typed) removed. */
export function unescapeCsvCell(cell: string): string {
  return cell.startsWith("'") && FORMULA.test(cell.slice(1)) ? cell.slice(1) : cell;
}
