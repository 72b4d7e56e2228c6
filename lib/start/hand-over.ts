/**
 * What the starter (./starter.ts) and the bundles it loads hand each other: each bundle is a
 * file of its own, so these types are the only link between them (the imports are type-only,
 * erased by the build). What a start bundle read is handed on as the read-set (lib/flows/reads.ts).
 */
import type { commitMsgClean } from '../flows/commit-start.js';
import type { prePushClean } from '../flows/push-start.js';
import type { ReadSet } from '../flows/reads.js';

/** The hook bundle (dist/cli/hook.cjs, lib/hooks/run.ts). */
export interface HookBundle {
  runHook(
    argv: string[],
    context: {
      cwd: string;
      stdout: NodeJS.WritableStream;
      stderr: NodeJS.WritableStream;
      reads?: ReadSet;
    },
    input?: string,
  ): Promise<number>;
  v8FlagsChanged(): boolean;
}

/** The clean starts' own small bundles (lib/flows/commit-start.ts, lib/flows/push-start.ts). */
export interface CleanStarts {
  commitMsgClean: typeof commitMsgClean;
  prePushClean: typeof prePushClean;
}

/** What a clean start answered. */
export interface Started {
  clean: boolean;
  /** What the hook's flow takes over (lib/flows/reads.ts). */
  reads?: ReadSet;
  /** stdin, read once for both. */
  input?: string;
}

/** The language server's own bundle (./lsp.ts), as the start-up loads it. */
export interface LspBundle {
  runLsp(onWarm: () => void): Promise<number>;
}
