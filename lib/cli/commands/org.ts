/**
 * `revtrail org mine|stats|candidates|query` (docs/org.md): many repositories' records in one
 * folder of Parquet files, answered by embedded DuckDB. Parses, calls lib/org/, prints. Exit 1
 * when a repository was skipped (the answer covers the rest), 2 for a usage or input error.
 */
import { relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { defineCommand, type CliContext } from '../command.js';
import { escapeControl as esc, plainLineEvery, progress } from '../../core/output.js';
import type { RepoOutcome } from '../../org/mine.js';

interface OrgArgs {
  repos?: string[];
  from?: string[];
  dir: string;
  jobs?: number;
  json: boolean;
  redact: boolean;
  cache: boolean;
}

const DEFAULT_DIR = '.revtrail/org';

function repoOptions(y: Argv): Argv {
  return y
    .positional('repos', {
      type: 'string',
      array: true,
      describe: 'repositories: work trees (top level) or bare clones; NAME=PATH names one',
    })
    .option('from', {
      type: 'string',
      array: true,
      requiresArg: true,
      describe: 'a file of repository paths, one a line (NAME=PATH names one; # comments)',
    })
    .option('jobs', { type: 'number', requiresArg: true, describe: 'repositories mined at once (default: the cores)' });
}

function common(y: Argv): Argv {
  return y
    .option('dir', {
      type: 'string',
      default: DEFAULT_DIR,
      requiresArg: true,
      describe: 'the folder of Parquet files (repo=<name>/…), written and read',
    })
    .option('json', { type: 'boolean', default: false, describe: 'machine-readable output' })
    .option('redact', { type: 'boolean', default: false, describe: 'authors become REDACTED <p-pseudonym>' })
    .option('cache', { type: 'boolean', default: true, describe: 'use each repository’s mining cache' });
}

/** The entries of the command line and --from, and the options every org run takes. */
async function runOptions(args: OrgArgs, context: CliContext, bar: Bar) {
  const [{ readEntries }, { CREDENTIAL_RULE_SOURCES }] = await Promise.all([
    import('../../org/repos.js'),
    import('../../review/builtin.js'),
  ]);
  const entries = await readEntries(context.cwd, args.repos ?? [], args.from ?? []);
  if (args.jobs !== undefined && (!Number.isInteger(args.jobs) || args.jobs < 1)) {
    const [{ UsageError }, { orgMessages: m }] = await Promise.all([
      import('../../core/errors.js'),
      import('../../messages/org.js'),
    ]);
    throw new UsageError(m.badJobs(args.jobs));
  }
  return {
    dir: resolve(context.cwd, args.dir),
    entries,
    jobs: args.jobs,
    redact: args.redact,
    cache: args.cache,
    exempt: (s: string) => CREDENTIAL_RULE_SOURCES.has(s),
    onRepo: (o: RepoOutcome, done: number, total: number) => bar.repo(o, done, total),
  };
}

interface Bar {
  repo(o: RepoOutcome, done: number, total: number): void;
  done(): void;
}

/** One live line on a terminal; elsewhere a plain line at most every few seconds. Skips are always said. */
async function orgProgress(context: CliContext): Promise<Bar> {
  const { orgMessages: m } = await import('../../messages/org.js');
  const live = progress(context.stderr);
  const tty = Boolean(context.stderr.isTTY);
  let last = Date.now();
  const every = plainLineEvery();
  return {
    repo(o, done, total) {
      if (o.state === 'skipped') {
        live.done();
        context.stderr.write(`${esc(m.skipped(o.problem))}\n`);
      }
      const line = esc(m.progress(done, total, o.name));
      if (tty) live.update(line);
      else if (Date.now() - last >= every) {
        last = Date.now();
        context.stderr.write(`${line}\n`);
      }
    },
    done: () => live.done(),
  };
}

const skippedOf = (outcomes: readonly RepoOutcome[]) =>
  outcomes.filter((o): o is Extract<RepoOutcome, { state: 'skipped' }> => o.state === 'skipped');

async function closing(outcomes: readonly RepoOutcome[], context: CliContext, json: boolean): Promise<number> {
  const skipped = skippedOf(outcomes).length;
  if (!skipped) return 0;
  const { orgMessages: m } = await import('../../messages/org.js');
  if (!json) context.stderr.write(`${m.someSkipped(skipped)}\n`);
  return 1;
}

const mineCommand = defineCommand<OrgArgs>({
  command: 'mine [repos..]',
  describe: 'Mine repositories in parallel into the folder of Parquet files (an unchanged one is not rewritten)',
  builder: (y) =>
    common(repoOptions(y)).example('$0 org mine --from repos.txt --dir org-files', 'every repository of the list'),
  async run(args, context) {
    const [{ runOrgMine }, { orgMessages: m }, { UsageError }] = await Promise.all([
      import('../../org/run.js'),
      import('../../messages/org.js'),
      import('../../core/errors.js'),
    ]);
    const bar = await orgProgress(context);
    const options = await runOptions(args, context, bar);
    if (!options.entries.length) throw new UsageError(m.noRepositories, { remedy: m.noRepositoriesRemedy });
    let outcomes: RepoOutcome[];
    try {
      outcomes = await runOrgMine(options);
    } finally {
      bar.done();
    }
    const dir = relative(context.cwd, options.dir) || '.';
    if (args.json) {
      context.stdout.write(JSON.stringify({ dir, repositories: outcomes }, null, 2) + '\n');
    } else {
      for (const o of outcomes)
        if (o.state !== 'skipped')
          context.stdout.write(
            `${esc(o.state === 'mined' ? m.mined(o.name, o.commits, o.records) : m.unchanged(o.name, o.commits, o.records))}\n`,
          );
      const count = (s: RepoOutcome['state']) => outcomes.filter((o) => o.state === s).length;
      context.stdout.write(`${esc(m.summary(count('mined'), count('unchanged'), count('skipped'), dir))}\n`);
    }
    return closing(outcomes, context, args.json);
  },
});

const statsCommand = defineCommand<OrgArgs>({
  command: 'stats [repos..]',
  describe: 'Per-rule reject rates across the repositories, with n and where each rule is noisy',
  builder: (y) =>
    common(repoOptions(y))
      .usage('$0 org stats [REPOS…] [--from FILE] [--dir DIR] [--json]\n\nRepositories given are mined first.')
      .example('$0 org stats --dir org-files', 'from files mined before (or synced from elsewhere)'),
  async run(args, context) {
    const [{ runOrgStats }, { orgMessages: m }] = await Promise.all([
      import('../../org/run.js'),
      import('../../messages/org.js'),
    ]);
    const bar = await orgProgress(context);
    const options = await runOptions(args, context, bar);
    let result: Awaited<ReturnType<typeof runOrgStats>>;
    try {
      result = await runOrgStats(options);
    } finally {
      bar.done();
    }
    const { stats, outcomes } = result;
    if (args.json) {
      context.stdout.write(JSON.stringify({ ...stats, skipped: skippedOf(outcomes) }, null, 2) + '\n');
    } else {
      const lines = [m.statsHeading(stats.repositories.length)];
      if (!stats.rules.length) lines.push(m.statsNone);
      for (const r of stats.rules) {
        lines.push(m.statsRule(r.rule_source, r.repositories, r.findings, r.reject_rate, r.human_verdicts, r.flag));
        if (r.noisy_in.length) lines.push(m.statsNoisy(r.noisy_in));
      }
      context.stdout.write(lines.map((l) => esc(l)).join('\n') + '\n');
    }
    return closing(outcomes, context, args.json);
  },
});

interface QueryArgs extends OrgArgs {
  sql: string;
}

const queryCommand = defineCommand<QueryArgs>({
  command: 'query <sql>',
  describe: 'Run SQL over the folder’s tables (records, threads, rules) and views with embedded DuckDB',
  builder: (y) =>
    common(y.positional('sql', { type: 'string', describe: 'one SQL statement', demandOption: true }))
      .option('from', {
        type: 'string',
        array: true,
        requiresArg: true,
        describe: 'mine the repositories of FILE first',
      })
      .example('$0 org query "SELECT repository, count(*) FROM records GROUP BY 1"', 'records per repository'),
  async run(args, context) {
    const [{ runOrgQuery }, { orgMessages: m }] = await Promise.all([
      import('../../org/run.js'),
      import('../../messages/org.js'),
    ]);
    const bar = await orgProgress(context);
    const options = await runOptions({ ...args, repos: [] }, context, bar);
    let result: Awaited<ReturnType<typeof runOrgQuery>>;
    try {
      result = await runOrgQuery({ ...options, sql: args.sql });
    } finally {
      bar.done();
    }
    const { columns, rows, outcomes } = result;
    if (args.json) context.stdout.write(JSON.stringify({ columns, rows }, null, 2) + '\n');
    else {
      const cell = (v: unknown) => (v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
      const out = [columns.join('\t'), ...rows.map((r) => columns.map((c) => cell(r[c])).join('\t'))];
      // Values from repositories: escaped on a terminal, exact into a pipe or a file.
      const text = out.join('\n');
      context.stdout.write(`${context.stdout.isTTY ? esc(text, { keepNewlines: true }) : text}\n`);
      if (context.stdout.isTTY) context.stdout.write(`${m.queryRows(rows.length)}\n`);
    }
    return closing(outcomes, context, args.json);
  },
});

interface CandidatesArgs extends OrgArgs {
  out?: string;
  knowledge?: string;
}

const candidatesCommand = defineCommand<CandidatesArgs>({
  command: 'candidates [repos..]',
  describe: 'The promotion gate over the threads of several repositories: one draft per rule, naming each repository',
  builder: (y) =>
    repoOptions(y)
      .option('json', { type: 'boolean', default: false, describe: 'machine-readable output' })
      .option('out', {
        type: 'string',
        requiresArg: true,
        describe: 'also write each candidate as an OKF file in DIR (never inside the bundle)',
      })
      .option('knowledge', {
        type: 'string',
        requiresArg: true,
        describe: 'the shared bundle: a rule it holds is knowledge already',
      })
      .example('$0 org candidates --from repos.txt --knowledge shared/.okfw', 'what the teams found and fixed alike'),
  async run(args, context) {
    const [{ orgCandidates, writeOrgCandidates }, { orgMessages: m }, { UsageError }, { openWorkspace }] =
      await Promise.all([
        import('../../org/candidates.js'),
        import('../../messages/org.js'),
        import('../../core/errors.js'),
        import('../../workspace/index.js'),
      ]);
    const bar = await orgProgress(context);
    const options = await runOptions({ ...args, dir: DEFAULT_DIR, redact: false, cache: true }, context, bar);
    if (!options.entries.length) throw new UsageError(m.noRepositories, { remedy: m.noRepositoriesRemedy });
    // The gate's thresholds: the workspace's config (this folder's, when it is a repository with
    // one; the defaults, and its one line, when it cannot be used).
    const ws = await openWorkspace(context.cwd, { needRepo: false });
    if (ws.configProblem) context.stderr.write(`${esc(ws.configProblem)}\n`);
    const config = ws.config;
    const bundleRoot = args.knowledge === undefined ? null : resolve(context.cwd, args.knowledge);
    const bundle = bundleRoot ? await ws.bundle(bundleRoot) : null;
    let result: Awaited<ReturnType<typeof orgCandidates>>;
    try {
      result = await orgCandidates({
        entries: options.entries,
        jobs: options.jobs,
        minRecurrence: config.gate.minRecurrence,
        minAuthors: config.gate.minAuthors,
        bundle,
        onRepo: options.onRepo,
      });
    } finally {
      bar.done();
    }
    const out = args.out === undefined ? null : resolve(context.cwd, args.out);
    const written = out ? await writeOrgCandidates(out, bundleRoot, result.candidates) : [];
    const show = (f: string) => relative(context.cwd, f) || f;
    if (args.json) {
      context.stdout.write(
        JSON.stringify(
          {
            candidates: result.candidates.map((c) => ({ ...c.candidate, repositories: c.repositories })),
            files: written.map((w) => show(w.file)),
            in_bundle: result.set.inBundle,
            rules: result.rules,
            skipped: skippedOf(result.outcomes),
          },
          null,
          2,
        ) + '\n',
      );
      return closing(result.outcomes, context, true);
    }
    const lines: string[] = [];
    for (const s of result.set.inBundle) lines.push(m.candidateInBundle(s.rule_source, s.document));
    result.candidates.forEach((c, i) => {
      lines.push(m.candidate(c.candidate.id, c.candidate.rule_source, c.candidate.gate.threads, c.repositories));
      if (written[i]) lines.push(m.candidateWrote(show(written[i]!.file)));
    });
    if (!result.candidates.length) {
      lines.push(m.candidatesNone(result.rules.length));
      for (const r of result.rules) {
        const qualifying = Object.values(r.qualifying).reduce((a, b) => a + b, 0);
        lines.push(
          m.candidateFar(
            r.rule_source,
            qualifying,
            config.gate.minRecurrence,
            r.signals.filter((s) => !s.met).map((s) => s.name),
          ),
        );
      }
    }
    context.stdout.write(lines.map((l) => esc(l)).join('\n') + '\n');
    return closing(result.outcomes, context, false);
  },
});

export default defineCommand({
  command: 'org',
  describe: 'Many repositories in one place: mine them into Parquet, then stats, candidates or SQL with DuckDB',
  builder: (yargs) => yargs.usage('$0 org <mine|stats|candidates|query> [options]'),
  subcommands: [mineCommand, statsCommand, candidatesCommand, queryCommand],
});
