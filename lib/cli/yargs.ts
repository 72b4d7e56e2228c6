/**
 * The full CLI: yargs parses, a command record's handler runs, this file only wires them. Every
 * command comes from the registry (commands/index.ts); only the one being run gets its options,
 * the others are listed by name and description for --help.
 */
import yargs, { type Argv } from 'yargs';
import { UsageError } from '../core/errors.js';
import { commandName, type CliContext, type AnyCommand } from './command.js';
import { commands } from './commands/index.js';
import { cliMessages as m } from '../messages/cli.js';
import { closest } from '../core/suggest.js';

declare const REVTRAIL_VERSION: string | undefined;

/**
 * Help examples as a `# what it does` line over the command, each on a line of its own: yargs'
 * two-column layout breaks a long command in the middle, which then cannot be copied.
 */
function examplesOnTheirOwnLines(parser: Argv): Argv {
  const example = parser.example.bind(parser) as (command: unknown, description?: string) => Argv;
  const patched = (command: unknown, description?: string): Argv => {
    if (typeof command !== 'string') return example(command, description);
    if (description) example(`# ${description}`, '');
    return example(command, '');
  };
  return Object.assign(parser, { example: patched });
}

/** "Unknown argument: stagd" names the nearest option of the command (`--staged`). */
function withOptionHint(text: string, parser: Argv): string {
  const unknown = /^Unknown arguments?: (.+)$/.exec(text);
  if (!unknown) return text;
  const options = Object.keys(
    (parser as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key ?? {},
  );
  const kebab = [...new Set(options.map((o) => o.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)))];
  const near = unknown[1]!
    .split(/,\s*/)
    .map((word) => closest(word.replace(/^-+/, ''), kebab))
    .filter((n): n is string => n !== null)
    .map((n) => (n.length === 1 ? `-${n}` : `--${n}`));
  return m.unknownOption(text, [...new Set(near)]);
}

/**
 * yargs renders and keeps the whole help text of a command as soon as its handler has started,
 * in case the handler later asks for help (showHelp) or fails into yargs' own help-printing
 * failure. Neither happens here: no handler asks for help, and `.fail()` below turns every
 * failure into a UsageError without help. The text it renders (10 ms or more of every command,
 * docs/mining.md "Start-up") is never read, so it is not made; `--help` and `-h` are answered
 * before any handler starts and are not touched by this.
 */
export function withoutHelpAfterHandler(parser: Argv): void {
  type Usage = { cacheHelpMessage?: () => void };
  const internal = (parser as unknown as { getInternalMethods?: () => { getUsageInstance(): Usage } })
    .getInternalMethods;
  const usage = internal?.call(parser).getUsageInstance();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}

export async function runCli(argv: string[], context: CliContext): Promise<number> {
  let exitCode = 0;
  const register = (parser: Argv, module: AnyCommand): Argv =>
    parser.command(
      module.command,
      module.describe,
      (y: Argv) => {
        let built = module.builder(y) as Argv;
        // `--format` with nothing after it is a usage error, not the default format.
        type Options = { choices?: Record<string, unknown>; narg?: Record<string, number> };
        const options = (built as unknown as { getOptions(): Options }).getOptions();
        const valued = Object.keys(options.choices ?? {}).filter((k) => options.narg?.[k] === undefined);
        if (valued.length) built = built.requiresArg(valued);
        if (module.subcommands) {
          for (const sub of module.subcommands) built = register(built, sub);
          built = built.demandCommand(1, m.needsSubcommand(commandName(module)));
        }
        return built;
      },
      module.run
        ? async (args: unknown) => {
            exitCode = await module.run!(args, context);
          }
        : undefined,
    );

  const names = commands.map(commandName);
  const wanted = argv.find((a) => !a.startsWith('-'));
  if (wanted !== undefined && !names.includes(wanted)) {
    throw new UsageError(m.unknownCommand(wanted, closest(wanted, names)), { remedy: m.usageRemedy(undefined) });
  }
  let parser = examplesOnTheirOwnLines(yargs(argv))
    .scriptName('revtrail')
    .usage(m.usage)
    .strict()
    .demandCommand(1, m.needsCommand)
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version(typeof REVTRAIL_VERSION === 'string' ? REVTRAIL_VERSION : '0.0.0')
    .wrap(Math.min(100, context.stdout.columns ?? 100))
    .exitProcess(false)
    .fail((message, error) => {
      // yargs' own argument errors (YError) are usage errors, like the messages it passes.
      if (error && error.name !== 'YError') throw error;
      const known = wanted !== undefined && names.includes(wanted) ? wanted : undefined;
      // One line: yargs spreads some messages ("Invalid values:") over several.
      const text = (message ?? error?.message ?? m.invalidArguments).replace(/\s*\n\s*/g, ' ');
      throw new UsageError(withOptionHint(text, parser), { remedy: m.usageRemedy(known) });
    });
  for (const module of commands) {
    parser =
      commandName(module) === wanted ? register(parser, module) : parser.command(commandName(module), module.describe);
  }
  withoutHelpAfterHandler(parser);
  await parser.parseAsync();
  return exitCode;
}
