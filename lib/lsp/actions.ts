/**
 * The code actions a diagnostic offers (docs/editor.md "Code actions"): an allow comment with a
 * reason, a verdict for the queue `revtrail verdict` writes, and the decision opened. Each is a
 * command the server runs, so the reason and the rationale can be asked for by a client that
 * can ask (the VS Code extension does) and the queue is written by the one writer in lib/verdicts.
 */
import type { CodeAction, Diagnostic } from 'vscode-languageserver';
import type { HumanVerdict } from '../core/vocabulary.js';
import type { DiagnosticData } from './diagnostics.js';
import { lspMessages as m } from '../messages/lsp.js';

export const COMMANDS = {
  allow: 'revtrail.allow',
  queueVerdict: 'revtrail.queueVerdict',
  openDecision: 'revtrail.openDecision',
} as const;

export interface AllowArguments {
  uri: string;
  /** Repository-relative path (its language decides the comment syntax). */
  path: string;
  /** The rule the comment names (the finding's rule_source). */
  rule: string;
  /** 0-based line the comment goes above. */
  line: number;
  /** Absent: the client did not ask, and the comment gets a placeholder for it. */
  reason?: string;
}

export interface VerdictArguments {
  uri: string;
  id: string;
  verdict: HumanVerdict;
  /** Absent: the client did not ask; the server then says how to give one. */
  rationale?: string;
}

export interface OpenArguments {
  uri: string;
  line: number;
}

/**
 * The answers offered for a finding: for a credential the ones the gate's policy takes
 * (`gate.credentialAnswers`), else REJECT, ACKNOWLEDGE and DEFER. ACCEPT ("fixed") is the edit
 * itself in the editor, so it is not offered.
 */
export function verdictsFor(
  data: Pick<DiagnosticData, 'credential'>,
  credentialAnswers: readonly string[],
): HumanVerdict[] {
  const offered: HumanVerdict[] = ['REJECT', 'ACKNOWLEDGE', 'DEFER'];
  return data.credential ? offered.filter((v) => credentialAnswers.includes(v)) : offered;
}

/** The actions of one of revtrail's diagnostics in the document `uri`. */
export function actionsFor(
  uri: string,
  diagnostic: Diagnostic,
  policy: { credentialAllow: boolean; credentialAnswers: readonly string[] },
): CodeAction[] {
  const data = diagnostic.data as DiagnosticData;
  const actions: CodeAction[] = [];
  // A credential's allow comment the policy does not honour would change nothing: not offered.
  if (!data.credential || policy.credentialAllow) {
    const args: AllowArguments = { uri, path: data.path, rule: data.ruleSource, line: data.startLine - 1 };
    actions.push({
      title: m.allowTitle(data.ruleSource),
      kind: 'quickfix',
      diagnostics: [diagnostic],
      command: { title: m.allowTitle(data.ruleSource), command: COMMANDS.allow, arguments: [args] },
    });
  }
  for (const verdict of verdictsFor(data, policy.credentialAnswers)) {
    const args: VerdictArguments = { uri, id: data.id, verdict };
    actions.push({
      title: m.verdictTitle(verdict, data.id),
      kind: 'quickfix',
      diagnostics: [diagnostic],
      command: { title: m.verdictTitle(verdict, data.id), command: COMMANDS.queueVerdict, arguments: [args] },
    });
  }
  if (data.document) {
    const args: OpenArguments = { uri: data.document.uri, line: data.document.line };
    actions.push({
      title: m.openTitle(data.document.id),
      kind: 'quickfix',
      diagnostics: [diagnostic],
      command: { title: m.openTitle(data.document.id), command: COMMANDS.openDecision, arguments: [args] },
    });
  }
  return actions;
}
