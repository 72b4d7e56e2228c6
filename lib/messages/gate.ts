/** Every user-facing text of the promotion gate: the fact behind each signal and what would change it. */
const short = (sha: string) => sha.slice(0, 12);

/** Counts as words in prose ("meeting the N thread signals"), N from the signal registry. */
export const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const counted = (n: number) => NUMBER_WORDS[n] ?? String(n);

export const gateMessages = {
  noMainlineConfigured: (name: string) => `the configured mainline "${name}" does not resolve to a commit`,
  noMainlineFound: 'none of origin/HEAD, main, master exists',
  setMainline: 'set "mainline" in revtrail.config.json to the branch that holds merged work',

  // Shared by the signals that look at the fix.
  noAccept: 'no ACCEPT verdict in the thread',
  recordAccept: (id: string, mainline: string) =>
    `fix it, then record \`revtrail verdict ${id} ACCEPT "<what fixed it>"\` in the fixing commit and merge it into ${mainline}`,
  noFixCommit: 'no ACCEPT commit to check',
  noFile: 'the finding names no file',
  noFileChange: 'nothing: a finding without a file cannot be tied to a fix',
  /** What a rule signal counts: threads meeting every thread signal (N from the registry). */
  threadSignals: (n: number) => `the ${counted(n)} thread signals`,
};

/**
 * Each signal's own texts, under its name (lib/gate/signals/<name>.ts uses them; the registry
 * test checks that every signal has its entry here).
 */
export const signalMessages = {
  merged: {
    met: (c: string, mainline: string) => `${short(c)} (carrying the ACCEPT) is reachable from ${mainline}`,
    unmet: (c: string, mainline: string) => `${short(c)} (carrying the ACCEPT) is not reachable from ${mainline}`,
    change: (c: string, mainline: string) => `merge ${short(c)} into ${mainline}`,
    noMainline: (why: string) => `no mainline: ${why}`,
  },

  resolved: {
    met: (c: string) => `the latest verdict is ACCEPT (${short(c)})`,
    unmet: (state: string, c: string) => `the latest verdict is ${state} (${short(c)})`,
    change: (id: string) => `a later ACCEPT verdict once it is fixed: revtrail verdict ${id} ACCEPT "<what fixed it>"`,
  },

  fix_commit: {
    met: (c: string, file: string) => `${short(c)} changes ${file} (diff against its first parent)`,
    unmet: (c: string, file: string, others: number) =>
      `${short(c)} does not change ${file} (its first-parent diff touches ${others} other file${others === 1 ? '' : 's'})`,
    change: (file: string) => `record the ACCEPT in the commit that changes ${file} to fix it`,
  },

  not_dismissed: {
    rejected: (c: string, rationale: string) => `REJECT in ${short(c)}: "${rationale}"`,
    rejectedChange: 'nothing for this thread: a REJECT stays in history; a new finding starts a new thread',
    fileGone: (file: string, mainline: string) => `${file} does not exist at the tip of ${mainline}`,
    fileGoneChange: (file: string, mainline: string) => `${file} must exist on ${mainline}`,
    noMainline: (file: string) => `no mainline to look for ${file} in`,
    met: (file: string, mainline: string) => `no REJECT in the thread; ${file} exists at the tip of ${mainline}`,
  },

  ci_successful: {
    pass: (c: string) => `CI recorded pass for ${short(c)}`,
    fail: (c: string) => `CI recorded fail for ${short(c)}`,
    failChange: (c: string) =>
      `fix the build, then \`revtrail ci record pass ${short(c)}\` (it replaces the fail note)`,
    none: (c: string) => `no CI outcome recorded for ${short(c)} in refs/notes/revtrail-ci`,
    noneChange: (c: string) =>
      `run \`revtrail ci record pass|fail ${short(c)}\` in CI, and fetch refs/notes/revtrail-ci (git fetch origin refs/notes/revtrail-ci:refs/notes/revtrail-ci)`,
    other: (c: string, note: string) => `the CI note on ${short(c)} says "${note.slice(0, 60)}", not pass or fail`,
    otherChange: (c: string) => `\`revtrail ci record pass ${short(c)}\` once CI passes`,
  },

  generalizable: {
    fact: (rule: string, n: number, files: number, min: number, threadSignals: number) =>
      `${rule} has ${n} thread${n === 1 ? '' : 's'} meeting ${gateMessages.threadSignals(threadSignals)}, in ${files} file${files === 1 ? '' : 's'} (needs ${min}, in at least 2 files)`,
    change: (rule: string, moreThreads: number, moreFiles: boolean) =>
      [
        moreThreads > 0
          ? `${moreThreads} more fixed, merged, CI-passing finding${moreThreads === 1 ? '' : 's'} of ${rule}`
          : '',
        moreFiles ? 'one in another file' : '',
      ]
        .filter(Boolean)
        .join(', ') + ' (lower gate.minRecurrence to ask for fewer)',
  },

  evidence: {
    met: (file: string, line: string, c: string) => `${file}:${line} is among the lines ${short(c)} changed`,
    unmet: (n: number) => `none of the ${n} occurrence${n === 1 ? '' : 's'} points at lines its commit changed`,
    change: 'a finding recorded by the commit that adds the flagged lines (the commit-msg hook records it so)',
    noLocation: 'no occurrence names a file and line',
    noLocationChange: 'findings need file and line to be evidence',
    notChecked: (signal: string) => `not checked: ${signal} is unmet, so this thread cannot qualify`,
  },

  several_authors: {
    met: (rule: string, n: number) => `the qualifying threads of ${rule} are recorded by commits of ${n} authors`,
    unmet: (rule: string, n: number, threads: number) =>
      threads === 0
        ? `${rule} has no qualifying thread, so no authors to count`
        : `the qualifying threads of ${rule} are recorded by commits of ${n === 1 ? 'one author' : `${n} authors`} only`,
    change: (rule: string, min: number) =>
      `fixed findings of ${rule} raised or fixed by ${min} people in all (one person's habit is not yet the team's knowledge; gate.minAuthors: 1 for a team of one)`,
  },
};
