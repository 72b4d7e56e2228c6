/**
 * The shapes the rule runner (./rules.ts) works with: a rule with the baseline's guards, the
 * line a rule is asked about, and what a run gives back.
 */
import type { Rule } from '../../bundle/types.js';
import type { Chunk, DiffFile } from '../../diff/types.js';
import type { FindingDraft } from '../findings/contract.js';
import type { MaskedLine } from './mask.js';
import type { FileFacts } from './file-facts.js';

export interface LineContext {
  path: string;
  /** The chunk the line is in (its hunks show the lines around it, context included). */
  chunk: Chunk;
  /** Index into `added`. */
  index: number;
  added: Chunk['added'];
  /**
   * The line as code (literal and comment contents blanked). For JavaScript-family files it is
   * lexed from the top of the file where the diff shows it (new files, hunks at line 1), so a
   * line inside a multi-line template or comment is known as such; elsewhere it is read alone.
   * In HTML-like files (.html, .vue, .svelte) only the `<script>` parts are code.
   */
  view: () => MaskedLine;
}

/** What the built-in baseline adds to a plain rule, to stay quiet on look-alikes. */
export interface RuleGuards {
  /** 'code': the regex runs on the line with strings, regex literals and comments blanked out. */
  scope?: 'code' | 'text';
  /** Lines that are whole comments in the file's language are not checked. */
  skipComments?: boolean;
  /**
   * True when a match is a known look-alike (a tagged SQL template, text in a heredoc…). A
   * RuleDrop says why a match is not reported where the user may want to know (a placeholder
   * key, an inline directive): it is counted under `dropped` and shown with --verbose.
   */
  reject?: (match: RegExpExecArray, text: string, context: LineContext) => boolean | RuleDrop;
  /** Once git's attributes for the file are known: whether a finding stands (conflict-marker-size). */
  standsWith?: (text: string, facts: FileFacts) => boolean;
  /**
   * Calls the file makes through its own names for what the rule looks for (a renamed import:
   * `import { exec as run }`), as a pattern matched beside the rule's; null when it has none. A
   * chunk of such a file is read whatever the needles say. Built-in rules only.
   */
  fileCalls?: (file: DiffFile, path: string) => RegExp | null;
  /** Linear and cheap: also runs on lines over MAX_LINE_LENGTH. */
  longLines?: boolean;
  /** Runs on generated, vendored, lock and minified files too, like a credential format (conflict markers break them as surely). */
  everyFile?: boolean;
  /** A credential format (built-in): runs on generated and minified files too, never demoted. */
  credential?: boolean;
  /** A heuristic that yields: not reported on a line a credential rule reports (one finding per problem). */
  secondary?: boolean;
  /** Written and measured here (the baseline): never needs the regex sandbox. */
  trusted?: boolean;
  /**
   * Strings one of which every match contains (./needles.ts reads them from the pattern; the
   * baseline declares its own, checked against that reading by a test, to spare the parse).
   */
  needles?: readonly string[] | null;
}

export type ReviewRule = Rule & RuleGuards;

export interface RuleDrop {
  reason: 'placeholder' | 'disabled_inline';
  /** What was not reported and why, for --verbose. */
  why: string;
}

export interface RuleRun {
  drafts: FindingDraft[];
  warnings: string[];
  /** Matches a rule chose not to report, with the reason. */
  dropped: Array<RuleDrop & { ruleSource: string; path: string; line: number }>;
}
