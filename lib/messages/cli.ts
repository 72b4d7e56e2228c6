/** Every user-facing message of the CLI frame. */
export const cliMessages = {
  usage: '$0 <command> [options]\n\nOffline code review against your knowledge bundle, recorded in git trailers.',
  needsCommand: 'Name a command: revtrail --help lists them.',
  needsSubcommand: (command: string) => `Name a subcommand: revtrail ${command} --help lists them.`,
  unknownCommand: (name: string) => `unknown command "${name}"`,
  invalidArguments: 'invalid arguments',
  usageRemedy: (command: string | undefined) =>
    command ? `Run revtrail ${command} --help for its usage.` : 'Run revtrail --help for the usage.',
};
