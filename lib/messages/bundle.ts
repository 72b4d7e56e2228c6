/** Every user-facing message about the knowledge bundle (docs/bundle.md) and `knowledge check`. */
const mib = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) ? 1 : 0)} MiB`
    : `${Math.ceil(bytes / 1024)} KiB`;

export const bundleMessages = {
  // Discovery
  noBundle: (dir: string) => `knowledge bundle ${dir} does not exist: no documents are selected`,
  notAFolder: (dir: string) => `knowledge bundle ${dir} is not a folder: no documents are selected`,
  noRootIndex: (dir: string) => `${dir} has no index.md: no documents are loaded (discovery starts at index.md)`,
  linkMissing: (target: string) => `link to ${target}: no such file`,
  linkLeaves: (target: string) => `link to ${target} leaves the bundle; ignored`,
  linkLeavesViaSymlink: (target: string, real: string) =>
    `link to ${target} resolves (through a symlink) to ${real}, outside the bundle; ignored`,
  folderWithoutIndex: (target: string) => `link to folder ${target}, which has no index.md; ignored`,
  indexCycle: (target: string) =>
    `link back to ${target}, which links here already (an index cycle); not followed again`,
  linkLoop: (target: string) => `link to ${target}: a symlink loop (a link that leads back to itself); ignored`,
  linkUnreadable: (target: string, why: string) => `link to ${target}: ${why}; ignored`,
  unreadable: (why: string) => `cannot read this file: ${why}`,
  tooBig: (size: number, cap: number) =>
    `this file is ${mib(size)}, over the ${mib(cap)} cap: only its first ${mib(cap)} is read`,
  notUtf8: (byte: number) =>
    `this file is not UTF-8 (byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} here; Latin-1 or another encoding?); skipped. Save it as UTF-8`,
  unreached: 'no index links to this file, so it is not loaded (link it from an index.md, or remove it)',
  tooManyProblems: (more: number) => `${more} more problem${more === 1 ? '' : 's'} in this file not shown`,
  // Concepts
  noFrontmatter: 'no YAML frontmatter (a concept starts with a --- line); skipped',
  frontmatterNotClosed: 'the frontmatter has no closing --- line; skipped',
  badYaml: (why: string) => `frontmatter is not valid YAML: ${why}; skipped`,
  tooManyAliases: (max: number) => `frontmatter has more than ${max} YAML aliases (*name); skipped`,
  tooDeep: (max: number) => `frontmatter nests more than ${max} levels deep; skipped`,
  aliasBomb: (max: number) => `frontmatter aliases expand to more than ${max} values (or refer to themselves); skipped`,
  conceptFailed: (why: string) => `this concept cannot be read (${why}); skipped`,
  notAMapping: 'frontmatter is not a mapping of keys to values; skipped',
  noType: 'no `type` in the frontmatter (OKF requires a non-empty type); skipped',
  duplicateId: (id: string, other: string) => `duplicate concept id "${id}" (also ${other}); this one is ignored`,
  badId: 'frontmatter `id` must be a non-empty string; the path is used instead',
  badKey: (key: string, why: string) => `\`${key}\` ${why}`,
  notNames: 'must be a name or a list of non-empty names',
  notGlobs: 'must be a glob or a list of globs',
  rulesNotList: 'must be a list of rule definitions',
  // Globs
  emptyGlob: 'an empty glob matches nothing',
  negatedGlob: (glob: string) =>
    `glob "${glob}" starts with !: negation is not supported here (a rule has \`exclude\` for that)`,
  invalidGlob: (glob: string, why: string) => `invalid glob "${glob}": ${why}`,
  costlyGlob: (glob: string, why: string) =>
    `glob "${glob}" skipped: ${why}; matching it can take minutes on a long path (split it into simpler globs)`,
  tooManyGlobstars: (n: number, max: number) => `${n} \`**\` segments (at most ${max})`,
  tooManyWildcards: (n: number, max: number) => `a segment with ${n} wildcards (at most ${max})`,
  absoluteGlob: (glob: string) =>
    `glob "${glob}" starts with / or ./; globs are relative to the repository top, read as "${glob.replace(/^(\.?\/)+/, '')}"`,
  // Rules
  ruleInvalid: (label: string, field: string, why: string) => `rule ${label}: ${field ? `${field}: ` : ''}${why}`,
  astPattern: (label: string, why: string) => `rule ${label}: ${why}`,
  rulePattern: (label: string, why: string) => `rule ${label}: pattern does not compile: ${why}`,
  ruleRequired: (label: string, field: string) => `rule ${label}: ${field} is required`,
  ruleWrongType: (label: string, field: string, expected: string) => `rule ${label}: ${field} must be ${expected}`,
  patternMatchesEmpty: (label: string) =>
    `rule ${label}: the pattern matches the empty string, so it can flag lines that hold nothing it looks for (make some part of it required)`,
  patternSuperLinear: (label: string, why: string) =>
    `rule ${label}: the pattern risks super-linear matching (${why}); it runs under a time limit and is skipped when it overruns`,
  ruleOverran: (label: string) =>
    `rule ${label} overran its time limit in a review this week and is skipped for a week, or until its pattern changes`,
  ruleDuplicate: (id: string) => `rule id "${id}" is used twice in this concept`,
  ruleIdUnfit: (conceptId: string) =>
    `concept id "${conceptId}" cannot name its rules "${conceptId}:<rule-id>" (a rule source is name[/section]:rule-id: letters, digits, _ . + @ -, at most one /); rules ignored — give the concept a short \`id\` in its frontmatter`,
  // Doc map
  docMapMissing: (file: string) => `doc map ${file} (config "docMap") does not exist: no documents are mapped`,
  docMapLeaves: (file: string) => `doc map ${file} (config "docMap") lies outside the work tree; not read`,
  docMapInvalid: (why: string) => `${why}; no documents are mapped (the bundle and the built-in rules still run)`,
  docMapTooBig: (size: number, cap: number) => `the doc map is ${mib(size)}, over the ${mib(cap)} cap`,
  docMapNoMappings:
    'the doc map has no `mappings` list ({mappings: [{paths: [globs], docs: [files or folders]}]}): no documents are mapped',
  docMapUnknownKey: (key: string, where: string) =>
    `unknown key "${key}" in ${where}; ignored (keys: ${where === 'the doc map' ? 'mappings' : 'paths, docs'})`,
  docMapNotMapping: (n: number) => `mapping #${n} is not a {paths, docs} mapping; skipped`,
  docMapNoPaths: (n: number) => `mapping #${n} has no usable \`paths\` globs; its documents govern nothing; skipped`,
  docMapNoDocs: (n: number) => `mapping #${n} has no \`docs\` (files or folders); skipped`,
  docMapNotText: (n: number, key: string) =>
    `mapping #${n}: every \`${key}\` entry must be a non-empty string; this one is ignored`,
  docMapDocMissing: (doc: string) => `document ${doc}: no such file or folder; skipped`,
  docMapDocLeaves: (doc: string) => `document ${doc} lies outside the work tree; refused`,
  docMapDocLeavesViaSymlink: (doc: string, real: string) =>
    `document ${doc} resolves (through a symlink) to ${real}, outside the work tree; refused`,
  docMapEmptyFolder: (doc: string) => `folder ${doc} holds no .md file; nothing mapped`,
  docMapTooMany: (max: number) => `the doc map names more than ${max} documents; the rest are not read`,
  docMapIdClash: (id: string, other: string) =>
    `mapped document has id "${id}", which ${other} has too; this one is ignored (give one of them another \`id\`)`,
  // knowledge check
  checkMissing: (dir: string) => `knowledge bundle ${dir} does not exist`,
  checkMissingRemedy:
    'Give the bundle folder (knowledge check DIR), set "knowledge" in revtrail.config.json, or run revtrail init.',
  checkNotAFolder: (dir: string) => `knowledge bundle ${dir} is not a folder`,
  checkSummary: (dir: string, concepts: number, rules: number, errors: number, warnings: number) =>
    `${dir}: ${concepts} concept${concepts === 1 ? '' : 's'}, ${rules} rule${rules === 1 ? '' : 's'}, ` +
    `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`,
  checkDocMap: (file: string, documents: number, unusable: boolean) =>
    unusable
      ? `doc map ${file}: cannot be used (exit 2)`
      : `doc map ${file}: ${documents} mapped document${documents === 1 ? '' : 's'} (counted above)`,
  checkFailed: (errors: number) => `knowledge check found ${errors} error${errors === 1 ? '' : 's'}`,
};

/** What a rule definition's field must be (lib/bundle/rules.ts): shown after the field's path. */
export const ruleMessages = {
  id: 'must be letters, digits, _ . - (no spaces or colons)',
  empty: 'must not be empty',
  flags: 'must be JavaScript regex flags (d g i m s u v y)',
  oneOf: (values: readonly string[]) => `must be one of ${values.join(', ')}`,
  titleLong: 'must be at most 80 characters',
  oneLine: 'must be one line',
  unitInterval: 'must be between 0 and 1',
  unknownKey: 'unknown key',
  equivalent: 'must name a linter and its rule, as `eslint:no-console` or `ruff:T201`',
  required: 'is required',
  mustBe: (what: string) => `must be ${what}`,
  types: { string: 'a string', number: 'a number', object: 'a mapping of keys to values', array: 'a list' } as Record<
    string,
    string
  >,
};
