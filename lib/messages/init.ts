/** Every user-facing message of `revtrail init`. */
/** The install that works here (lib/install/route.ts says which). */
type InstallRoute =
  | { kind: 'husky' }
  | { kind: 'manager'; managers: readonly string[] }
  | { kind: 'hooks-path'; value: string }
  | { kind: 'remote'; manager: 'lefthook' | 'pre-commit' };

/** Step 3 of "Next:": the install that works here (plain install refuses beside a hook manager or another core.hooksPath). */
function installStep(route: InstallRoute): string[] {
  if (route.kind === 'manager') {
    const [only] = route.managers;
    return route.managers.length === 1
      ? [
          `  3. revtrail install --${only}`.padEnd(38) + ` adds the commit-msg and pre-push hooks to ${only}'s config`,
          `                                       (this repository runs its hooks with ${only})`,
        ]
      : [
          `  3. revtrail install --${route.managers.join('|--')}`,
          `                                       the manager that installs your hooks (${route.managers.join(' and ')} are set up)`,
        ];
  }
  if (route.kind === 'remote')
    return route.manager === 'lefthook'
      ? [
          "  3. lefthook install                  fetches revtrail's hooks/lefthook.yml and writes git's hooks",
          '                                       (lefthook.yml takes revtrail through remotes:; revtrail doctor checks it)',
        ]
      : [
          '  3. pre-commit install --hook-type commit-msg --hook-type pre-push',
          '                                       (the config takes revtrail through repo:; revtrail doctor checks it)',
        ];
  if (route.kind === 'hooks-path')
    return [
      '  3. revtrail install --force          installs the commit-msg and pre-push hooks through husky',
      `                                       (core.hooksPath is ${route.value}: its hooks keep running, chained)`,
    ];
  return ['  3. revtrail install                  installs the commit-msg and pre-push hooks'];
}

export const initMessages = {
  heading: (top: string) => `revtrail init in ${top}`,
  wrote: (path: string) => `  wrote ${path}`,
  keptFile: (path: string) => `  kept  ${path} (it exists; not overwritten)`,
  keptConfigInPackage: '  kept  package.json#revtrail (the configuration is there; no revtrail.config.json written)',
  keptBundle: (dir: string) => `  kept  ${dir}/ (it has an index.md already; no starter concepts added)`,
  ignored: '  added .revtrail/ to .gitignore (candidate drafts and local state stay out of commits and reviews)',
  nothingWritten: 'Nothing written: revtrail is set up here already.',
  next: (adr: string | null, route: InstallRoute = { kind: 'husky' }) =>
    [
      'Next:',
      ...(adr
        ? [`  1. edit ${adr} (paths, domain, rules)`]
        : ['  1. edit the concepts of your bundle (paths, domain, rules)']),
      '  2. revtrail knowledge check          validates the bundle',
      ...installStep(route),
      '  4. git add <files> && revtrail knowledge select --staged',
      '                                       shows which documents govern the staged change, and why',
    ].join('\n'),
  addDocMapKey: (file: string) => `The configuration names no doc map yet: add "docMap": "${file}" to it.`,
  nextDocMap: (file: string, route: InstallRoute = { kind: 'husky' }) =>
    [
      'Next:',
      `  1. edit ${file}: map your design documents (docs) to the code they govern (paths)`,
      '  2. revtrail knowledge check          validates the doc map',
      ...installStep(route),
      '  4. git add <files> && revtrail knowledge select --staged',
      '                                       shows which documents govern the staged change, and why',
    ].join('\n'),
  noTemplates: (dir: string) => `revtrail's templates folder was not found (looked for ${dir})`,
  noTemplatesRemedy: 'Reinstall revtrail: its package ships a templates/ folder.',
  cannotWrite: (path: string, why: string) => `cannot write ${path}: ${why}`,
  cannotWriteRemedy: 'Check the folder permissions, or that no folder stands where the file goes.',
};
