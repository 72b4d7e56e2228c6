/**
 * A finding's line span as a trailer writes it (`N` or `N-M`). Its own module: hook output
 * prints spans without loading the row schema and the CSV libraries (./row.ts).
 */
export function lineSpan(start: number, end: number): string {
  return start >= end ? String(end) : `${start}-${end}`;
}
