import { RevtrailError } from '../errors.js';

/** A git command that failed; keeps the command and git's own words (like simple-git's GitError). */
export class GitError extends RevtrailError {
  readonly args: readonly string[];
  readonly stderr: string;
  readonly status: number | null;
  constructor(args: readonly string[], status: number | null, stderr: string) {
    const said = stderr.trim().split('\n').slice(-2).join(' ').trim();
    super(`git ${args[0] ?? ''} failed${status === null ? '' : ` (exit ${status})`}${said ? `: ${said}` : ''}`, {
      exitCode: 2,
    });
    this.args = args;
    this.stderr = stderr;
    this.status = status;
  }
}

export class GitNotFoundError extends RevtrailError {
  constructor() {
    super('git was not found on PATH', { exitCode: 2, remedy: 'Install git 2.39 or newer and try again.' });
  }
}

export class NotARepositoryError extends RevtrailError {
  constructor(cwd: string) {
    super(`${cwd} is not inside a git work tree`, {
      exitCode: 2,
      remedy: 'Run revtrail from inside a git repository (git init creates one).',
    });
  }
}
