/** Every user-facing message of the CLI frame. */
export const cliMessages = {
  usage: '$0 <command> [options]\n\nOffline code review against your knowledge bundle, recorded in git trailers.',
  needsCommand: 'Name a command: revtrail --help lists them.',
  needsSubcommand: (command: string) => `Name a subcommand: revtrail ${command} --help lists them.`,
  unknownCommand: (name: string, near: string | null) => `unknown command "${name}"${near ? `: did you mean ${near}?` : ''}`,
  unknownOption: (text: string, near: readonly string[]) => `${text}${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}`,
  invalidArguments: 'invalid arguments',
  usageRemedy: (command: string | undefined) =>
    command ? `Run revtrail ${command} --help for its usage.` : 'Run revtrail --help for the usage.',
  // The options more than one command takes (lib/cli/options.ts).
  oneSource: 'use only one of --staged, --range and --diff',
  oneSourceRemedy: 'Without any of them, all uncommitted changes against HEAD are used.',
  needsValue: (option: string) => `--${option} needs a value`,
  needsValueRemedy: 'For example: --knowledge .okfw, --diff changes.diff (or - for stdin), --range main..HEAD',
};
