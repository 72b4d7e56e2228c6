/** Every user-facing message of `revtrail lsp`, the language server (docs/editor.md). */
export const lspMessages = {
  reviewFailed: (path: string, why: string) => `revtrail: review of ${path} failed: ${why}`,
  reviewSlow: (path: string, ms: number) => `revtrail: review of ${path} took ${ms} ms`,
  reviewWarning: (path: string, warning: string) => `revtrail: ${path}: ${warning}`,
  diagnostic: (title: string, body: string) => (body && body !== title ? `${title}\n${body}` : title),
  hoverFrom: (id: string, file: string) => `${id} · ${file}`,
  hoverNoDocument: (ruleSource: string) => `${ruleSource}: the built-in baseline (docs/review.md)`,
  allowTitle: (rule: string) => `revtrail: allow ${rule} here, with a reason`,
  allowReasonPlaceholder: 'reason:',
  verdictTitle: (verdict: string, id: string) => `revtrail: queue ${verdict} for ${id} (asks for a rationale)`,
  openTitle: (id: string) => `revtrail: open the decision ${id}`,
  verdictQueued: (verdict: string, id: string) => `revtrail: queued ${verdict} for ${id}; the next commit records it`,
  verdictNeedsRationale: (verdict: string, id: string) =>
    `revtrail: a ${verdict} needs a rationale; run revtrail verdict ${id} ${verdict} "why"`,
  verdictRefused: (why: string) => `revtrail: verdict not queued: ${why}`,
  badArguments: (command: string) => `revtrail: ${command} was sent without the arguments it takes`,
  started: (version: string) => `revtrail ${version} language server started`,
} as const;
