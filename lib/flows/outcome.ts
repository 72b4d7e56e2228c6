/**
 * What a flow answers (docs/architecture.md "Use cases"): the exit code the hook or command
 * ends with, and the lines its adapter prints. A flow prints nothing and reads no `process`:
 * the adapter decides where the lines go (a hook's stderr, which git shows beside its own).
 */
export interface Outcome {
  /** 0 go on, 1 a blocking outcome, 2 an input the flow cannot take. */
  exit: number;
  lines: string[];
}
