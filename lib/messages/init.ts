/** Every user-facing message of `revtrail init`. */
export const initMessages = {
  heading: (top: string) => `revtrail init in ${top}`,
  wrote: (path: string) => `  wrote ${path}`,
  keptFile: (path: string) => `  kept  ${path} (it exists; not overwritten)`,
  keptConfigInPackage: '  kept  package.json#revtrail (the configuration is there; no revtrail.config.json written)',
  keptBundle: (dir: string) => `  kept  ${dir}/ (it has an index.md already; no starter concepts added)`,
  ignored: '  added .revtrail/ to .gitignore (candidate drafts and local state stay out of commits and reviews)',
  nothingWritten: 'Nothing written: revtrail is set up here already.',
  next: (adr: string | null, install = 'revtrail install') =>
    [
      'Next:',
      ...(adr
        ? [`  1. edit ${adr} (paths, domain, rules)`]
        : ['  1. edit the concepts of your bundle (paths, domain, rules)']),
      '  2. revtrail knowledge check          validates the bundle',
      `  3. ${install.padEnd(33)} installs the commit-msg and pre-push hooks`,
      '  4. git add <files> && revtrail knowledge select --staged',
      '                                       shows which documents govern the staged change, and why',
    ].join('\n'),
  addDocMapKey: (file: string) => `The configuration names no doc map yet: add "docMap": "${file}" to it.`,
  nextDocMap: (file: string, install = 'revtrail install') =>
    [
      'Next:',
      `  1. edit ${file}: map your design documents (docs) to the code they govern (paths)`,
      '  2. revtrail knowledge check          validates the doc map',
      `  3. ${install.padEnd(33)} installs the commit-msg and pre-push hooks`,
      '  4. git add <files> && revtrail knowledge select --staged',
      '                                       shows which documents govern the staged change, and why',
    ].join('\n'),
  noTemplates: (dir: string) => `revtrail's templates folder was not found (looked for ${dir})`,
  noTemplatesRemedy: 'Reinstall revtrail: its package ships a templates/ folder.',
  cannotWrite: (path: string, why: string) => `cannot write ${path}: ${why}`,
  cannotWriteRemedy: 'Check the folder permissions, or that no folder stands where the file goes.',
};
