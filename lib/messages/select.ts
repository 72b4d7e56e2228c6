/** Every user-facing message of `revtrail knowledge select` (and the `knowledge` command's usage). */
export const selectMessages = {
  chunkHeading: (path: string, piece: number, pieces: number, namespace: string | null, oldPath: string | null) =>
    `${path}${oldPath && oldPath !== path ? ` (from ${oldPath})` : ''}${pieces > 1 ? ` [piece ${piece}/${pieces}]` : ''}${namespace ? `  namespace ${namespace}` : ''}`,
  documentRules: (rules: readonly string[]) => `      rules: ${rules.join(', ')}`,
  document: (id: string, match: string, matched: string, tokens: number, truncated: boolean) =>
    `  ${id}  ${match}: ${matched}  (${tokens} tokens${truncated ? ', truncated to fit the budget' : ''})`,
  overBudget: (ids: string[]) =>
    `  also governed by (over the knowledge budget; their rules still run): ${ids.join(', ')}`,
  noDocuments: '  no governing documents',
  noChanges: 'No changes to select knowledge for.',
  usage: 'Validate a knowledge bundle, or show which of its documents govern a diff.',
};
