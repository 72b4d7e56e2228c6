/** Every user-facing message of the CLI frame. */
export const cliMessages = {
  usage: '$0 <command> [options]\n\nOffline code review against your knowledge bundle, recorded in git trailers.',
  needsCommand: 'Name a command: revtrail --help lists them.',
  needsSubcommand: (command: string) => `Name a subcommand: revtrail ${command} --help lists them.`,
  unknownCommand: (name: string, near: string | null) =>
    `unknown command "${name}"${near ? `: did you mean ${near}?` : ''}`,
  unknownOption: (text: string, near: readonly string[]) =>
    `${text}${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}`,
  invalidArguments: 'invalid arguments',
  usageRemedy: (command: string | undefined) =>
    command ? `Run revtrail ${command} --help for its usage.` : 'Run revtrail --help for the usage.',
  // The options more than one command takes (lib/cli/options.ts).
  oneSource: 'use only one of --staged, --range and --diff',
  oneSourceRemedy: 'Without any of them, all uncommitted changes against HEAD are used.',
  needsValue: (option: string) => `--${option} needs a value`,
  needsValueRemedy: 'For example: --knowledge .okfw, --diff changes.diff (or - for stdin), --range main..HEAD',
  // revtrail rules
  rulesColumns: ['RULE', 'KIND', 'SEVERITY', 'CATEGORY', 'SOURCE', ''],
  rulesAlwaysOn: 'always on (credential)',
  rulesSummary: (builtin: number, credential: number, bundle: number, folder: string) =>
    `${builtin} built-in (${credential} always on), ${bundle} from the bundle (${folder})`,
  rulesBundleErrors: (n: number) =>
    `${n} rule${n === 1 ? '' : 's'} or document${n === 1 ? '' : 's'} of the bundle could not be read: revtrail knowledge check names ${n === 1 ? 'it' : 'them'}`,
  rulesConfigUnusable: (problem: string) =>
    `revtrail: ${problem.replace(/[\r\n]+/g, ' ')}; listing the rules of the default configuration`,
};
