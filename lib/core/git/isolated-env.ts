/**
 * The environment of git runs that must behave the same on every machine: a fixed identity, no
 * user or system git config (so no user hooks, templates or aliases), no colour, and revtrail's
 * and husky's own switches cleared. One definition for the demo, the benches and the tests
 * (docs/architecture.md "The shared core").
 */
export interface GitIdentity {
  name: string;
  email: string;
}

export function isolatedGitEnv(identity: GitIdentity, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...base,
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    NO_COLOR: '1',
    REVTRAIL: '',
    HUSKY: '',
  };
}
