/** The handlers of `revtrail org` (its options: ../commands/org.ts), loaded by the command registry when it runs (docs/cli.md "Commands"). */
import { relative, resolve } from 'node:path';
import type { CliContext } from '../command.js';
import { escapeControl as esc, plainLineEvery, progress } from '../../core/output.js';
import type { RepoOutcome } from '../../org/mine.js';
import {
  type Bar,
  type CandidatesArgs,
  type OrgArgs,
  type QueryArgs,
  DEFAULT_DIR,
  skippedOf,
} from '../commands/org.js';
import { runOrgMine, runOrgQuery, runOrgStats } from '../../org/run.js';
import { orgMessages as m } from '../../messages/org.js';
import { UsageError } from '../../core/errors.js';
import { readEntries } from '../../org/repos.js';
import { CREDENTIAL_RULE_SOURCES } from '../../review/builtin.js';
import { orgCandidates, writeOrgCandidates } from '../../org/candidates.js';
import { openWorkspace } from '../../workspace/index.js';

export const handlers = {
  async mine(args: OrgArgs, context: CliContext): Promise<number> {
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
  async stats(args: OrgArgs, context: CliContext): Promise<number> {
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
  async query(args: QueryArgs, context: CliContext): Promise<number> {
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
  async candidates(args: CandidatesArgs, context: CliContext): Promise<number> {
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
};

/** The entries of the command line and --from, and the options every org run takes. */
async function runOptions(args: OrgArgs, context: CliContext, bar: Bar) {
  const entries = await readEntries(context.cwd, args.repos ?? [], args.from ?? []);
  if (args.jobs !== undefined && (!Number.isInteger(args.jobs) || args.jobs < 1)) {
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

/** One live line on a terminal; elsewhere a plain line at most every few seconds. Skips are always said. */
async function orgProgress(context: CliContext): Promise<Bar> {
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

async function closing(outcomes: readonly RepoOutcome[], context: CliContext, json: boolean): Promise<number> {
  const skipped = skippedOf(outcomes).length;
  if (!skipped) return 0;
  if (!json) context.stderr.write(`${m.someSkipped(skipped)}\n`);
  return 1;
}
