/** Every user-facing message of `revtrail ci`. */
export const ciMessages = {
  badCommit: (commit: string) => `${commit} is not a commit in this repository`,
  badCommitRemedy: 'Name a commit (a SHA, a branch, HEAD); run it where the commit exists (fetch first in CI).',
  noIdentity: 'git needs a committer identity to write the note',
  noIdentityRemedy: 'Set user.name and user.email (git config), or GIT_COMMITTER_NAME and GIT_COMMITTER_EMAIL in CI.',
  recorded: (outcome: string, commit: string, ref: string) =>
    `recorded CI ${outcome} for ${commit.slice(0, 12)} in ${ref}`,
  pushHint: (ref: string) => `share it with: git push origin ${ref}`,
};
