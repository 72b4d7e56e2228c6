/** `revtrail mine [REVS…]` (docs/mining.md): parses arguments, streams records, prints. */
import { resolve } from 'node:path';
import { defineCommand } from '../command.js';
import { escapeControl as esc, progress } from '../../core/output.js';
import type { MineFormat } from '../../mine/output.js';

// Kept here (not imported) so that listing commands does not load mining.
const MINE_FORMATS = ['jsonl', 'json', 'csv'] as const;

export interface MineArgs {
  revs?: string[];
  _: Array<string | number>;
  all: boolean;
  format: MineFormat;
  json: boolean;
  out?: string;
  'include-open': boolean;
  redact: boolean;
  cache: boolean;
}

const FLAGS: Record<string, keyof MineArgs> = { '--all': 'all', '--json': 'json', '--include-open': 'include-open', '--redact': 'redact', '--cache': 'cache', '--no-cache': 'cache' };

/**
 * The arguments yargs would give for a plain command line (flags spelled out in full, each at
 * most once, values that cannot be taken for options), or null for anything else, which yargs
 * then reads. A cached `mine` costs less than loading yargs (docs/mining.md, "Start-up");
 * test/cli/plain-args.test.ts holds this equal to yargs.
 */
export function plainArgs(argv: readonly string[]): MineArgs | null {
  if (argv[0] !== 'mine') return null;
  const args: MineArgs = { _: ['mine'], all: false, format: 'jsonl', json: false, 'include-open': false, redact: false, cache: true };
  const revs: string[] = [];
  const seen = new Set<string>();
  const once = (key: string) => !seen.has(key) && seen.add(key);
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    const flag = FLAGS[a];
    if (flag) {
      if (!once(flag)) return null;
      (args as unknown as Record<string, boolean>)[flag] = a !== '--no-cache';
      continue;
    }
    const [name, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    if (name === '--format' || name === '--out') {
      const value = inline ?? argv[++i];
      if (value === undefined || !PLAIN_VALUE.test(value) || !once(name)) return null;
      if (name === '--out') args.out = value;
      else if ((MINE_FORMATS as readonly string[]).includes(value)) args.format = value as MineFormat;
      else return null;
      continue;
    }
    if (!PLAIN_VALUE.test(a) || MAGIC_WORD.test(a)) return null;
    revs.push(a);
  }
  args.revs = revs;
  return args;
}

// A word yargs reads as it is: not an option, nothing it would split or expand; not 'help'
// (yargs' help) nor true/false (the value of a flag before it).
const PLAIN_VALUE = /^(?!-)[\w./@^~{}:+-]+$/;
const MAGIC_WORD = /^(help|true|false)$/i;

export default defineCommand<MineArgs>({
  command: 'mine [revs..]',
  describe: 'Mine Review-Finding trailers from git history into evidence records',
  builder: (y) =>
    y
      .positional('revs', { type: 'string', array: true, describe: 'revisions as git log takes them (default HEAD); after -- also git log options' })
      .option('all', { type: 'boolean', default: false, describe: 'every ref (git log --all)' })
      .option('format', { choices: MINE_FORMATS, default: 'jsonl' as MineFormat, describe: 'output format' })
      .option('json', { type: 'boolean', default: false, describe: 'same as --format json' })
      .option('out', { type: 'string', requiresArg: true, describe: 'write to FILE instead of stdout' })
      .option('include-open', { type: 'boolean', default: false, describe: 'CSV: also rows for OPEN findings' })
      .option('redact', { type: 'boolean', default: false, describe: 'authors become REDACTED <p-pseudonym>' })
      .option('cache', { type: 'boolean', default: true, describe: 'use the incremental cache in the git dir (--no-cache: read everything)' })
      .example('$0 mine --all --format csv --out feedback.csv', 'the feedback log of every branch'),
  async run(args, context) {
    // git looks for the repository while the rest loads.
    const { findRepo } = await import('../../core/git/repo.js');
    const found = findRepo(context.cwd);
    found.catch(() => {});
    const [{ loadConfig }, { configCacheFile }, { runMine }, { mineMessages: m }] = await Promise.all([
      import('../../config/load.js'),
      import('../../core/state.js'),
      import('../../mine/run.js'),
      import('../../messages/mine.js'),
    ]);
    const repo = await found;
    // A configuration validated before is not validated again (zod loads only when it changed).
    const { config } = await loadConfig(repo.top, { cacheFile: configCacheFile(repo.commonDir) });
    const debug = process.env.REVTRAIL_DEBUG === '1';
    const bar = progress(context.stderr);
    let result;
    try {
      result = await runMine({
        cwd: repo.top,
        commonDir: repo.commonDir,
        revs: [...(args.revs ?? []), ...args._.slice(1).map(String)],
        all: args.all,
        cache: args.cache,
        format: args.json ? 'json' : args.format,
        includeOpen: args['include-open'],
        redact: args.redact || config.privacy.redactAuthors,
        out: args.out === undefined ? undefined : resolve(context.cwd, args.out),
        stdout: context.stdout,
        onProgress: (commits, records) => bar.update(m.progress(commits, records)),
        onPlan: debug ? (plan, detail) => context.stderr.write(`revtrail: mine cache: ${plan}${detail ? ` (${detail})` : ''}\n`) : undefined,
      });
    } finally {
      bar.done();
    }
    const { notices, noticeCount } = result;
    for (const n of notices) context.stderr.write(`${esc(n.kind === 'warning' ? m.warning(n.commit, n.text) : m.rejectedLine(n.commit, n.text))}\n`);
    if (noticeCount > notices.length) context.stderr.write(`${m.warningsMore(noticeCount - notices.length)}\n`);
    return 0;
  },
});
