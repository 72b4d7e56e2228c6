// Builds a synthetic history for the mining bench with `git fast-import`: N commits on `main`
// (a merge of a side branch now and then), files that change, Review-Finding trailers with every
// verdict (about one trailer per five commits), some findings in the body, some in the ADR-0029
// grammar, a few broken rows, and CI notes on fix commits. Seeded: the same arguments give the
// same repository, byte for byte.
//
//   node bench/gen-history.mjs DIR [COMMITS=100000] [--seed N]
import { spawnSync, execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { stringify } from 'csv-stringify/sync';
import { benchEnv, generatorArgs, prng } from './lib.mjs';

const RULES = Array.from({ length: 24 }, (_, i) => ({
  source:
    i < 4
      ? `builtin/${['sql', 'shell', 'tests', 'secrets'][i]}:rule-${i}`
      : `decisions/adr-${String(i).padStart(3, '0')}:rule-${i}`,
  category: ['architecture', 'security', 'correctness', 'error-handling', 'performance', 'testing'][i % 6],
  severity: ['bug', 'security', 'api-surface', 'test', 'suggestion', 'nit'][i % 6],
  // Some rules are mostly rejected (noisy), some almost never: stats has both flags to show.
  rejectBias: i % 5 === 0 ? 0.5 : i % 5 === 1 ? 0.03 : 0.15,
}));
const AUTHORS = Array.from({ length: 20 }, (_, i) => [`Dev ${i}`, `dev${i}@example.com`]);

function row(fields) {
  return stringify([fields], { record_delimiter: '' }).trimEnd();
}

export function generateHistory(dir, commits, { seed = 42 } = {}) {
  const rand = prng(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const files = Array.from({ length: 400 }, (_, i) => ({
    path: `src/mod${i % 40}/file${i}.ts`,
    lines: Array.from({ length: 20 }, (_, j) => `export const v${j} = ${j};`),
  }));
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main', dir], { env: benchEnv });

  // The stream goes to a file as it is made, so a million commits take no more memory than a
  // thousand (the 1,000,000-commit mining row), then into fast-import from that file.
  const streamFile = join(dir, '.git', 'bench-fast-import.stream');
  const stream = openSync(streamFile, 'w');
  const out = [];
  let size = 0;
  const emit = (s) => {
    out.push(s);
    size += s.length;
    if (size > 1 << 22) flush();
  };
  const flush = () => {
    writeSync(stream, out.join(''));
    out.length = 0;
    size = 0;
  };
  const data = (text) => {
    const buf = Buffer.from(text, 'utf8');
    emit(`data ${buf.length}\n`);
    emit(text);
    emit('\n');
  };

  let time = Date.UTC(2020, 0, 1) / 1000;
  let mark = 0;
  let mainTip = 0;
  const open = []; // findings waiting for a verdict: {id, file, line, rule}
  const notes = []; // [mark, text]
  let findingSeq = 0;
  let trailers = 0;

  const changeFile = (file) => {
    const at = Math.floor(rand() * (file.lines.length + 1));
    const text = `export const c${mark}_${at} = ${Math.floor(rand() * 1e6)};`;
    if (at < file.lines.length && rand() < 0.6) file.lines[at] = text;
    else file.lines.splice(at, 0, text);
    if (file.lines.length > 120) file.lines.splice(0, 30);
    return Math.min(at, file.lines.length - 1) + 1;
  };
  const fileCommand = (file) => {
    const content = file.lines.join('\n') + '\n';
    const buf = Buffer.from(content, 'utf8');
    return `M 100644 inline ${file.path}\ndata ${buf.length}\n${content}\n`;
  };

  const commit = (ref, { from, merge, message, fileCommands, author }) => {
    mark += 1;
    time += 30 + Math.floor(rand() * 3600);
    const [name, email] = author;
    emit(`commit ${ref}\nmark :${mark}\n`);
    emit(`author ${name} <${email}> ${time} +0000\ncommitter ${name} <${email}> ${time} +0000\n`);
    data(message);
    if (from) emit(`from :${from}\n`);
    if (merge) emit(`merge :${merge}\n`);
    for (const c of fileCommands) emit(c);
    emit('\n');
    return mark;
  };

  for (let n = 0; n < commits; n++) {
    const author = pick(AUTHORS);
    const file = pick(files);
    const line = changeFile(file);
    const rows = [];
    const touched = new Set([file]);
    const bodyRows = [];
    const oddLines = [];
    // About one trailer per five commits: new OPEN findings and verdicts on earlier ones.
    if (rand() < 0.11) {
      const rule = pick(RULES);
      const id = 'rf-' + createHash('sha1').update(`f${findingSeq++}`).digest('hex').slice(0, 10);
      open.push({ id, file: file.path, line, rule });
      rows.push(
        row([
          id,
          file.path,
          String(line),
          rule.source,
          rule.category,
          rule.severity,
          `Issue flagged by ${rule.source}`,
          'OPEN',
          '',
        ]),
      );
    }
    if (open.length > 0 && rand() < 0.09) {
      const f = open.splice(Math.floor(rand() * open.length), 1)[0];
      const r = rand();
      let verdict;
      let rationale;
      if (r < f.rule.rejectBias)
        [verdict, rationale] = ['REJECT', 'False positive: `grep -n query src` shows a constant, not user input'];
      else if (r < f.rule.rejectBias + 0.15)
        [verdict, rationale] = ['DEFER', 'Tracked in #' + Math.floor(rand() * 900 + 100) + ', next release'];
      else if (r < f.rule.rejectBias + 0.25) [verdict, rationale] = ['ACKNOWLEDGE', 'Documented intent, see ADR-7'];
      else [verdict, rationale] = ['ACCEPT', 'Fixed: the value is now validated before use'];
      rows.push(
        row([
          f.id,
          f.file,
          String(f.line),
          f.rule.source,
          f.rule.category,
          f.rule.severity,
          `Issue flagged by ${f.rule.source}`,
          verdict,
          rationale,
        ]),
      );
      if (verdict === 'ACCEPT') {
        // The fix touches the finding's file; CI passes on most fixes.
        const target = files.find((x) => x.path === f.file);
        if (target !== file) changeFile(target);
        touched.add(target);
        const ci = rand();
        if (ci < 0.75) notes.push([mark + 1, 'pass\n']);
        else if (ci < 0.85) notes.push([mark + 1, 'fail\n']);
      }
    }
    if (rand() < 0.004) {
      const rule = pick(RULES);
      const id = 'rf-' + createHash('sha1').update(`b${n}`).digest('hex').slice(0, 8);
      bodyRows.push(
        row([id, file.path, String(line), rule.source, rule.category, rule.severity, 'Noted in the body', 'OPEN', '']),
      );
    }
    if (rand() < 0.004)
      oddLines.push(
        `Review-Finding: ${pick(['security', 'code-review', 'adversarial'])} ${pick(['HIGH', 'LOW', 'CRITICAL', 'MEDIUM'])} \u2014 ${file.path}:${line} unchecked input reaches the query`,
      );
    if (rand() < 0.001) oddLines.push('Review-Finding: rf-zz,broken,row');
    trailers += rows.length + bodyRows.length + oddLines.length;

    let message = `Change ${file.path} (#${n})\n`;
    if (rand() < 0.3) message += `\nRework the module so that the value ${n} is computed once.\nKeeps behaviour.\n`;
    if (bodyRows.length) message += `\n${bodyRows.map((r) => `Review-Finding: ${r}`).join('\n')}\n`;
    const block = [
      `Signed-off-by: ${author[0]} <${author[1]}>`,
      ...rows.map((r) => `Review-Finding: ${r}`),
      ...oddLines,
    ];
    message += `\n${block.join('\n')}\n`;

    const fileCommands = [...touched].map(fileCommand);
    // Every 200 commits the change goes through a side branch and a merge.
    if (n % 200 === 199 && mainTip) {
      const side = commit('refs/heads/side', { from: mainTip, message, fileCommands, author });
      mainTip = commit('refs/heads/main', {
        from: mainTip,
        merge: side,
        message: `Merge branch 'side' (#${n})\n`,
        fileCommands,
        author,
      });
    } else {
      mainTip = commit('refs/heads/main', { from: mainTip || undefined, message, fileCommands, author });
    }
  }
  // All CI notes in one notes commit (fast-import fans the notes tree out itself).
  if (notes.length) {
    mark += 1;
    emit(`commit refs/notes/revtrail-ci\nmark :${mark}\ncommitter CI <ci@example.com> ${time + 60} +0000\n`);
    data('Notes added by revtrail ci record\n');
    for (const [target, text] of notes) {
      if (target > mark) continue;
      emit(`N inline :${target}\n`);
      data(text);
    }
    emit('\n');
  }
  emit('done\n');
  flush();
  closeSync(stream);
  const input = openSync(streamFile, 'r');
  const r = spawnSync('git', ['fast-import', '--quiet', '--done'], {
    cwd: dir,
    stdio: [input, 'ignore', 'pipe'],
    env: benchEnv,
  });
  closeSync(input);
  rmSync(streamFile);
  if (r.status !== 0) throw new Error(`git fast-import failed: ${r.stderr}`);
  execFileSync('git', ['reset', '-q', '--hard', 'main'], { cwd: dir, env: benchEnv });
  return { dir, commits, trailers };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { dir, count, seed } = generatorArgs('gen-history.mjs', { seed: 42, count: 100000 });
  const started = Date.now();
  const result = generateHistory(dir, count, { seed });
  console.error(
    `${result.dir}: ${result.commits} commits, ${result.trailers} Review-Finding lines (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}
