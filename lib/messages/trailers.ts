/** Every user-facing message about Review-Finding trailers (lint, writing). */
export const trailerMessages = {
  legacyGrammar:
    'written in the ADR-0029 grammar (reviewer SEVERITY \u2014 text); revtrail writes the nine-field row (id,file,line,rule_source,category,severity,issue,verdict,rationale)',
  gitReadsOtherwise:
    "folded where git's own unfolding (%(trailers:unfold)) puts a space that is not in the row (after a comma, or before a space): tools that read trailers as git documents get other fields; write it on one line, or fold only at a space",
  lineTooLong: (length: number, limit: number) =>
    `a line of ${length} characters with no space to fold it at (commit-message linters take ${limit} in a footer, commitlint's footer-max-line-length): shorten the path, the issue or the rationale, or let the linter allow it`,
  notInTrailerBlock:
    "not in git's trailer block, so %(trailers) will not list it; move it into the last paragraph of the message",
  problem: (file: string, line: number, level: 'error' | 'warning', reason: string) =>
    `${file}:${line}: ${level === 'warning' ? 'warning: ' : ''}${reason}`,
  lintSummary: (file: string, rows: number, errors: number, warnings: number) =>
    `${file}: ${rows} Review-Finding row${rows === 1 ? '' : 's'}, ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`,
  unreadable: (file: string, why: string) => `cannot read ${file}: ${why}`,
  unreadableRemedy: 'Give the path of a commit message file, or - to read standard input.',
  notReadBack: (items: readonly string[]) =>
    `git would not read ${items.length === 1 ? 'this Review-Finding row' : `${items.length} Review-Finding rows`} back as a trailer of the message (${items.join(', ')}), so ${items.length === 1 ? 'it was' : 'they were'} not written`,
  notReadBackRemedy:
    'Check core.commentChar and the trailer.* settings (git config --get-regexp "^(core.commentchar|trailer)"); queued verdicts stay queued for the next commit.',
  lintRemedy:
    'Fix the rows above: id,file,line,rule_source,category,severity,issue,verdict,rationale (revtrail verdict writes them for you).',
};

/** Why a trailer value is not a row (lib/record/row.ts): each names the field and what it must be. */
export const rowMessages = {
  id: 'id must be rf- and 6 to 40 lowercase hex digits',
  fileEmpty: 'file is empty',
  fileOutside: 'file must be a path inside the repository, as git writes it (no leading /, no empty, . or .. parts)',
  lineShape: 'line must be N or N-M',
  lineOrder: 'line must be N or N-M with 1 <= N <= M',
  ruleSource: (shape: string) => `rule_source must be ${shape}`,
  notOneOf: (field: string, values: readonly string[]) => `${field} is not one of ${values.join(', ')}`,
  issueEmpty: 'issue is empty',
  issueLong: 'issue is longer than 80 characters',
  notCsv: (error: string) => `not a CSV record: ${error}`,
  manyRecords: 'more than one CSV record',
  emptyValue: 'empty value',
  neitherGrammar: (fields: readonly string[]) =>
    `neither grammar: not a CSV row of ${fields.length} fields (${fields.join(',')}), nor <reviewer> <SEVERITY> \u2014 <text>`,
  fieldCount: (got: number, fields: readonly string[]) =>
    `${got} fields, expected ${fields.length} (${fields.join(',')})`,
  fieldIssue: (path: string, message: string) => `${path || 'row'}: ${message}`,
  rationaleMissing: (verdict: string) => `${verdict} needs a rationale`,
  rejectUncheckable: 'REJECT rationale cites nothing checkable (a command and its output, a URL, quoted code)',
  deferUnplanned: (verdict: string) => `${verdict} rationale names no tracker, timeline or documented intent`,
};
