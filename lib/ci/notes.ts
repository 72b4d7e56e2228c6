/**
 * CI outcomes kept as git notes on commits (docs/cli.md `ci record`, docs/gate.md `ci_successful`): the note
 * says `pass` or `fail`; a later record overwrites an earlier one.
 */
import { committerKnown, notesOf, peel, run, stream } from '../core/git/commands.js';
import { InputError } from '../core/errors.js';
import { ciMessages as m } from '../messages/ci.js';

export const CI_NOTES_REF = 'refs/notes/revtrail-ci';
export const CI_OUTCOMES = ['pass', 'fail'] as const;
export type CiOutcome = (typeof CI_OUTCOMES)[number];

/** What a note says, read leniently: its first word (any case); none when there is no note. */
export function outcomeOf(note: string | undefined): CiOutcome | 'none' | 'other' {
  if (note === undefined || !note.trim()) return 'none';
  const word = /^(pass|fail)\b/i.exec(note.trim());
  return word ? (word[1]!.toLowerCase() as CiOutcome) : 'other';
}

/** The CI note of each commit that has one (one git call for all of them). */
export async function readCiNotes(cwd: string, commits: readonly string[]): Promise<Map<string, string>> {
  const notes = new Map<string, string>();
  if (commits.length === 0) return notes;
  if ((await run(peel(CI_NOTES_REF), { cwd })) === null) return notes;
  for await (const record of stream(notesOf(CI_NOTES_REF, commits), { cwd })) {
    const at = record.indexOf('\x01');
    if (at < 0) continue;
    const note = record.slice(at + 1);
    if (note.trim()) notes.set(record.slice(0, at), note.trim());
  }
  return notes;
}

/**
 * Stores `outcome` as the CI note of `commit` (default HEAD), replacing any earlier one. This is
 * simple-git's one role (docs/architecture.md "The git runner"): a command run once per CI job,
 * never on a hook path, where loading it (about 20 ms) does not matter.
 */
export async function recordCiOutcome(cwd: string, outcome: CiOutcome, commit = 'HEAD'): Promise<string> {
  const { simpleGit, GitError: SimpleGitError } = await import('simple-git');
  // git must see the environment the user gave revtrail: simple-git 4 strips every ambient GIT_*
  // variable unless allowed, which loses GIT_COMMITTER_NAME/EMAIL (CI, the demo), GIT_DIR and
  // GIT_CONFIG_GLOBAL, and then `git notes add` finds no identity.
  // (Handing simple-git the runner's fixed environment with .env() would put every ambient
  // variable through its guard: a PAGER or VISUAL in the shell would then refuse the command.)
  const repo = simpleGit({ baseDir: cwd, allowEnvironment: Object.keys(process.env) });
  let sha: string;
  try {
    sha = (await repo.revparse(['-q', '--verify', '--end-of-options', `${commit}^{commit}`])).trim();
  } catch (error) {
    if (error instanceof SimpleGitError) throw new InputError(m.badCommit(commit), { remedy: m.badCommitRemedy });
    throw error;
  }
  if (!sha) throw new InputError(m.badCommit(commit), { remedy: m.badCommitRemedy });
  try {
    await repo.raw(['notes', `--ref=${CI_NOTES_REF}`, 'add', '-f', '-m', outcome, sha]);
  } catch (error) {
    if (!(error instanceof SimpleGitError)) throw error;
    // git's words are in the user's locale here: `git var` (through the runner) asks plainly.
    if (/identity|Please tell me who you are|empty ident/i.test(error.message) || !(await hasCommitterIdentity(cwd))) {
      throw new InputError(m.noIdentity, { remedy: m.noIdentityRemedy });
    }
    throw new InputError(error.message.trim().split('\n').pop() ?? 'git notes failed', { remedy: m.badCommitRemedy });
  }
  return sha;
}

/** Whether git can name a committer (what `git notes add` needs): `git var` fails as a commit would. */
async function hasCommitterIdentity(cwd: string): Promise<boolean> {
  return await run(committerKnown, { cwd });
}
