/** Every user-facing message about reading a diff. */
export const diffMessages = {
  notADiff: (name: string) => `${name} is not a unified diff: no "diff --git" or "---"/"+++" file header found`,
  notADiffRemedy: 'Pass the output of `git diff` (or `diff -u`), or use --staged / --range instead.',
  badHunkHeader: (name: string, line: number, text: string) =>
    `${name}:${line}: malformed hunk header "${text.slice(0, 60)}"`,
  hunkEndsEarly: (name: string, line: number) =>
    `${name}:${line}: the diff ends inside a hunk (fewer lines than its @@ header announces)`,
  badHunkLine: (name: string, line: number, text: string) =>
    `${name}:${line}: unexpected line inside a hunk: "${text.slice(0, 60)}"`,
  damagedRemedy: 'The diff looks truncated or hand-edited; regenerate it with `git diff`.',
  fileMissing: (file: string) => `diff file ${file} does not exist`,
  fileUnreadable: (file: string, why: string) => `cannot read diff file ${file}: ${why}`,
  fileRemedy: 'Give the path of a file holding `git diff` output, or - to read the diff from stdin.',
  badRange: (range: string) => `"${range}" is not a revision range`,
  badRangeRemedy: 'Use --range A..B (changes of B since A) or --range A...B (since their merge base).',
  gitDiffFailed: (what: string, why: string) => `git diff ${what} failed: ${why}`,
  objectStore: "the repository's object store (.git/objects)",
  gitDiffRemedy: 'Check that the revisions exist (git log --oneline shows them).',
};
