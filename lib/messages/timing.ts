/** Every user-facing message of `revtrail doctor --timing` (lib/install/doctor-timing.ts). */
const ms = (value: number) => `${Math.round(value)} ms`;
const pct = (part: number, whole: number) => (whole > 0 ? Math.round((100 * part) / whole) : 0);

export const timingMessages = {
  title: (top: string) => `revtrail doctor --timing: ${top}`,
  method: (commit: string, subject: string, runs: number, manager: string | null) =>
    `commit ${commit.slice(0, 12)} "${subject}" made again over its parent in a scratch worktree, then pushed to a bare remote in the temp folder; median of ${runs} run${runs === 1 ? '' : 's'}; ${manager ? `git's hooks run ${manager}` : 'git runs the hook scripts itself'}`,
  header: (manager: string | null) => ['', 'total', 'revtrail', 'team', ...(manager ? [manager] : [])],
  step: { commit: 'git commit', push: 'git push' } as Record<string, string>,
  gitItself: 'git itself',
  all: 'all',
  ms,
  none: '-',
  noHooks: 'no hook ran',
  hookExit: (hook: string, code: number) =>
    code === 1
      ? `${hook} exited 1 (blocked): what it reviewed is timed all the same`
      : `${hook} exited ${code}: it did not run to the end, so its time is not what a passing run costs`,
  adds: (commit: number, commitTotal: number, push: number, pushTotal: number) =>
    `revtrail adds ${ms(commit)} to this commit (${pct(commit, commitTotal)}% of it) and ${ms(push)} to its push (${pct(push, pushTotal)}%).`,
  forRevtrail: (manager: string, hooks: string[]) =>
    `${manager} runs ${hooks.length > 1 ? `${hooks.slice(0, -1).join(', ')} and ${hooks.at(-1)}` : hooks[0]} for revtrail alone: its launch there is in revtrail's part`,
  how: 'revtrail: the hook minus the same hook with REVTRAIL=0; the manager: its launch with nothing to run; team: the rest (docs/hooks.md, "Timing the chain").',
  progress: (done: number, of: number) => `revtrail doctor --timing: ${done}/${of} commits and pushes timed`,
  badRev: (rev: string) =>
    `revtrail doctor --timing: ${rev} is not a commit with a parent: name one (revtrail doctor --timing=<commit>)`,
};
