/**
 * `revtrail demo` (docs/architecture.md): the whole story in a throwaway repository, through the real CLI,
 * the real hooks and a local bare remote. Never touches the repository it is started from.
 */
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseRow, type TrailerRow } from '../record/row.js';
import { demoMessages as m } from '../messages/demo.js';
import { demoFiles } from './files.js';
import { CheckFailedError } from '../core/errors.js';
import { packageRoot } from '../core/package-root.js';
import { STAND_IN_MODEL, startStandIn } from './stand-in-model.js';
import { escapeControl, shellQuote } from '../core/output.js';
import { isolatedGitEnv } from '../core/git/isolated-env.js';

export interface DemoOptions {
  write: (text: string) => void;
  /** Every command's whole output; by default each shows its first lines (the full transcript is in demo.log). */
  verbose?: boolean;
  /** Parent folder for the throwaway repository (default: the OS temp folder). */
  parent?: string;
}

export interface DemoResult {
  folder: string;
  blockedPush: boolean;
  secondPush: boolean;
  /** The push after calibration demoted the SQL rule went through. */
  calibratedPush: boolean;
  candidates: string[];
}

interface Ran {
  status: number;
  out: string;
}

/** Output lines a command shows by default (the demo fits a screen or two; --verbose shows all). */
const SHOWN_LINES = 3;

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const folder = realpathSync(mkdtempSync(join(options.parent ?? tmpdir(), 'revtrail-demo-')));
  // The whole transcript always goes to demo.log in the throwaway folder; the terminal gets it
  // all with --verbose, else each command's first lines.
  const transcript = join(folder, 'demo.log');
  const full = (text: string) => appendFileSync(transcript, text);
  const say = (text: string) => {
    full(text);
    options.write(text);
  };
  const quiet = (text: string, lines: number) => {
    full(text);
    if (options.verbose) return options.write(text);
    const all = text.replace(/\n$/, '').split('\n');
    const kept = all.slice(0, lines);
    if (all.length > lines) kept.push(m.moreLines(all.length - lines));
    options.write(kept.length ? `${kept.join('\n')}\n` : '');
  };
  const app = join(folder, 'app');
  const remote = join(folder, 'remote.git');
  const cli = join(packageRoot(), 'bin', 'revtrail.js');
  // A fixed identity and no user hooks or templates: the demo behaves the same on every machine.
  const env = isolatedGitEnv({ name: 'Dana Demo', email: 'dana@example.com' });

  // show: the command and its output, `lines` of it by default; 'log': in demo.log only.
  const run = (command: string, args: string[], cwd = app, show: boolean | 'log' = true, lines = SHOWN_LINES): Ran => {
    const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
    const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trimEnd();
    if (show) {
      // Each word quoted for a shell: a shown command pastes and runs as it ran here.
      const words = command === process.execPath ? ['revtrail', ...args.slice(1)] : [command, ...args];
      const text = `  $ ${escapeControl(words.map(shellQuote).join(' '))}\n${out ? out.replace(/^/gm, '    ') + '\n' : ''}`;
      if (show === 'log') full(text);
      else quiet(text, lines + 1);
    }
    return { status: r.status ?? 1, out };
  };
  const git = (args: string[], show: boolean | 'log' = true, lines?: number) => run('git', args, app, show, lines);
  const revtrail = (args: string[], show: boolean | 'log' = true, lines?: number) =>
    run(process.execPath, [cli, ...args], app, show, lines);
  const must = (r: Ran, what: string): Ran => {
    if (r.status !== 0) throw new CheckFailedError(m.stepFailed(what, r.out), { remedy: m.stepFailedRemedy(folder) });
    return r;
  };
  const write = (files: Record<string, string>) => {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(app, path)), { recursive: true });
      writeFileSync(join(app, path), content);
    }
  };
  const rowsOf = (rev: string): TrailerRow[] =>
    git(['log', '-1', '--format=%(trailers:key=Review-Finding,valueonly,separator=%x1f)', rev], false)
      .out.split('\x1f')
      .map((v) => parseRow(v))
      .flatMap((p) => (p.ok ? [p.row] : []));

  say(m.intro(folder));

  say(m.step(1, 'a repository, a bare remote, revtrail init and install'));
  must(run('git', ['init', '-q', '-b', 'main', app], folder), 'git init');
  must(run('git', ['init', '-q', '--bare', '-b', 'main', remote], folder, false), 'git init --bare');
  // The hooks look for node_modules/.bin/revtrail, as after `npm i -D revtrail`.
  const shim = join(app, 'node_modules', '.bin', 'revtrail');
  mkdirSync(dirname(shim), { recursive: true });
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`);
  chmodSync(shim, 0o755);
  write(demoFiles.baseline);
  must(revtrail(['init']), 'revtrail init');
  // The demo's history is short: two answered findings of a rule are enough for calibration to
  // judge it here (the default, 5, would need three more rounds of commits and verdicts). The
  // SQL rule's findings are `security`: calibration demotes them only because the config names
  // the rule in calibration.security (docs/gate.md "Calibration").
  const configFile = join(app, 'revtrail.config.json');
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as {
    calibration?: Record<string, unknown>;
    gate?: Record<string, unknown>;
    reviewer?: Record<string, unknown>;
  };
  config.calibration = { ...config.calibration, minVerdicts: 2, security: ['builtin/injection:sql-concat'] };
  // Calibration needs REJECTs from gate.minAuthors people (default 2); the demo's one false
  // positive is Sam's, so the short history lets one person's answers count.
  config.gate = { ...config.gate, minAuthors: 1 };
  writeFileSync(configFile, JSON.stringify(config, null, 2) + '\n');
  say(m.calibrationConfig);
  const standIn = await startStandIn();
  try {
    must(revtrail(['install']), 'revtrail install');
    git(['add', '-A'], false);
    must(git(['commit', '-q', '-m', 'chore: start the shop service']), 'first commit');
    git(['remote', 'add', 'origin', remote], false);
    must(git(['push', '-q', '-u', 'origin', 'main']), 'first push');
    // The team turns on its local model reviewer, played here by a deterministic stand-in on loopback.
    config.reviewer = {
      ...config.reviewer,
      model: { endpoint: standIn.endpoint, model: STAND_IN_MODEL, hooks: ['commit-msg', 'pre-push'] },
    };
    writeFileSync(configFile, JSON.stringify(config, null, 2) + '\n');
    say(m.standInConfig(standIn.endpoint));

    say(
      m.step(
        2,
        'a commit that breaks the ADR, builds SQL from strings, skips a test, leaves two debugger statements and formats money from floats',
      ),
    );
    write(demoFiles.violation);
    git(['add', '-A'], false);
    must(git(['commit', '-q', '-m', 'feat: order lookup endpoint']), 'commit with findings');
    say(m.trailersWritten);
    git(['log', '-1', '--format=%(trailers:key=Review-Finding)']);
    const open = rowsOf('HEAD');

    say(m.step(3, 'git push: the pre-push hook reviews what is pushed'));
    const blocked = git(['push', 'origin', 'main']);
    const blockedPush = blocked.status !== 0;

    say(
      m.step(
        4,
        'Sam, a teammate, answers the findings: fix six, reject a false positive, defer the skipped test; record the verdicts and the CI result',
      ),
    );
    write(demoFiles.fix);
    for (const [i, row] of open.entries()) {
      const answer = demoFiles.answer(row);
      must(revtrail(['verdict', row.id, answer.verdict, answer.rationale], i === 0 || 'log'), `verdict ${row.id}`);
    }
    if (open.length > 1 && !options.verbose) options.write(m.moreVerdicts(open.length - 1));
    revtrail(['verdict', '--list']);
    git(['add', '-A'], false);
    // Sam, not Dana, fixes them: the gate drafts knowledge only from findings more than one
    // person has handled (several_authors, docs/gate.md).
    must(
      git(['commit', '-q', '--author', 'Sam Demo <sam@example.com>', '-m', 'fix: orders go through the repository']),
      'fix commit',
    );
    git(['log', '-1', '--format=%(trailers:key=Review-Finding)']);
    must(revtrail(['ci', 'record', 'pass']), 'ci record');

    say(m.step(5, 'git push again: every blocking finding is answered'));
    const second = git(['push', 'origin', 'main']);

    say(
      m.step(
        6,
        'the team writes down a second decision (ADR-0002: no console.log); its rule flags two test helpers, and Sam and Dana each answer one: not a violation under test/helpers/',
      ),
    );
    const index = join(app, '.okfw', 'index.md');
    writeFileSync(
      index,
      readFileSync(index, 'utf8').replace('\n## Decisions\n\n', `\n## Decisions\n\n${demoFiles.decision.link}`),
    );
    write({ [demoFiles.decision.path]: demoFiles.decision.text });
    // Before the rule is enforced: its hits over the history so far, then what the code holds
    // today recorded, committed with the decision (docs/mining.md "Adopting a rule in a week").
    must(revtrail(['rules', '--backtest']), 'rules --backtest');
    must(revtrail(['baseline']), 'baseline');
    git(['add', '-A'], false);
    must(git(['commit', '-q', '-m', 'docs: ADR-0002, shipped code logs through the logger']), 'ADR-0002');
    write(demoFiles.testHelpers);
    git(['add', '-A'], false);
    must(git(['commit', '-q', '-m', 'test: helpers that print fixtures']), 'test helpers');
    const helpers = rowsOf('HEAD').filter((r) => r.rule_source.endsWith(':no-console-log'));
    for (const [i, row] of helpers.entries()) {
      // Each answers with the bulk form a team uses for a whole folder (docs/mining.md "Adopting a
      // rule in a week"), here for the one file they own: every open finding of the rule there.
      must(
        revtrail(
          ['verdict', '--rule', row.rule_source, '--path', row.file, 'REJECT', demoFiles.helperRationale(row.file)],
          i === 0 || 'log',
        ),
        `verdict --rule ${row.rule_source}`,
      );
      const who = i === 0 ? ['--author', 'Sam Demo <sam@example.com>'] : [];
      must(git(['commit', '-q', '--allow-empty', ...who, '-m', `chore: answer ${row.id}`]), 'answer commit');
    }
    // What reached the team's main counts (the gate's `merged`): the answers are pushed.
    must(git(['push', '-q', 'origin', 'main']), 'push of the answers');

    say(m.step(7, 'mine the history into evidence (the feedback-log CSV)'));
    must(revtrail(['mine', '--format', 'csv']), 'mine');

    say(m.step(8, 'statistics per rule'));
    must(revtrail(['stats']), 'stats');

    say(
      m.step(
        9,
        "knowledge candidates: the model's rule nobody wrote yet, and a refinement of ADR-0002 from its answers; drafts for a human",
      ),
    );
    must(revtrail(['candidates']), 'candidates');
    const outDir = join(app, '.revtrail', 'candidates');
    const candidates = existsSync(outDir)
      ? readdirSync(outDir)
          .filter((f) => f.endsWith('.md'))
          .sort()
      : [];
    // The refinement of ADR-0002 (with its patch) and the model's new rule: one of each kind.
    for (const file of candidates.slice(0, 2)) {
      say(m.candidateFile(join('.revtrail', 'candidates', file)));
      quiet(readFileSync(join(outDir, file), 'utf8').replace(/^/gm, '    ') + '\n', SHOWN_LINES);
    }
    const adrRule = open.find((r) => r.category === 'architecture');
    if (adrRule) revtrail(['candidates', '--explain', adrRule.rule_source]);

    say(
      m.step(
        10,
        'calibration: the SQL rule was rejected in 1 of its 2 answers and calibration.security names it, so its next finding no longer blocks the push',
      ),
    );
    write(demoFiles.calibrated);
    git(['add', '-A'], false);
    must(git(['commit', '-q', '-m', 'feat: purge archived rows']), 'commit after calibration');
    const third = git(['push', 'origin', 'main']);
    revtrail(['stats', '--rule', 'builtin/injection:sql-concat']);

    say(m.outro(shellQuote(folder), shellQuote(app)));
    if (!options.verbose) options.write(m.transcript(shellQuote(transcript)));
    return { folder, blockedPush, secondPush: second.status === 0, calibratedPush: third.status === 0, candidates };
  } finally {
    standIn.stop();
  }
}
