/**
 * Errors a user can act on. Each carries the exit code the CLI returns for it (docs/cli.md:
 * 1 blocking outcome, 2 usage or input error) and, where there is one, the remedy to print.
 */
export class RevtrailError extends Error {
  readonly exitCode: number;
  readonly remedy?: string;
  constructor(message: string, options: { exitCode?: number; remedy?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = options.exitCode ?? 2;
    this.remedy = options.remedy;
  }
}

/** Bad flags or arguments. */
export class UsageError extends RevtrailError {}

/** A file or value the user gave that cannot be used (config, bundle, diff, message). */
export class InputError extends RevtrailError {}

/** A check that ran and failed: lint errors, bundle errors, a blocking review. Exit 1. */
export class CheckFailedError extends RevtrailError {
  constructor(message: string, options: { remedy?: string; cause?: unknown } = {}) {
    super(message, { ...options, exitCode: 1 });
  }
}

export function isRevtrailError(error: unknown): error is RevtrailError {
  return error instanceof RevtrailError;
}
