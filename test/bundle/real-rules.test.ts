/**
 * The bundles of the real-projects bench (bench/real-rules/, issue 55) stay usable: each loads
 * without a problem, has at least five decisions and every rule kind, its labels name its own
 * rules, and every line labelled a true violation is still found when a commit adds it. The
 * bench itself needs the fetched projects; this needs only the lines the labels quote.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { loadBundle } from '../../lib/bundle/load.js';
import { projectRoot, runCli, throwawayRepos } from '../kit/repo.js';

interface Label {
  commit?: string;
  rule_source: string;
  path: string;
  text: string;
  label: boolean;
  category?: string;
  reason: string;
}

const base = join(projectRoot, 'bench', 'real-rules');
const projects = readdirSync(base).filter((d) => existsSync(join(base, d, 'project.json')));
const repos = throwawayRepos();
/** Why a finding is not a violation (bench/real-rules/README.md "Labels"). */
const CATEGORIES = [
  'comment',
  'docstring',
  'string',
  'touched-only',
  'moved',
  'type-checking-import',
  'linter-allowed',
];

test('the bench has two real projects', () => {
  assert.deepEqual(projects.sort(), ['flask', 'vue']);
});

for (const project of projects) {
  const knowledge = join(base, project, '.okfw');
  const labels = JSON.parse(readFileSync(join(base, project, 'labels.json'), 'utf8')) as Record<string, Label[]>;
  const all = [...labels.replays!, ...labels.tree!];

  test(`${project}: the bundle loads clean with every rule kind, and its labels name its rules`, async () => {
    const bundle = await loadBundle(knowledge, { base: join(base, project) });
    assert.deepEqual(bundle.diagnostics, []);
    assert.ok(bundle.concepts.length >= 5, `${bundle.concepts.length} decisions`);
    const structural = bundle.concepts.flatMap((c) => c.structural ?? []);
    assert.ok(
      bundle.concepts.some((c) => c.rules.length > 0),
      'a pattern rule',
    );
    assert.ok(
      structural.some((r) => r.kind === 'ast'),
      'an ast rule',
    );
    assert.ok(
      structural.some((r) => r.kind === 'imports'),
      'an imports rule',
    );
    const sources = new Set(
      bundle.concepts.flatMap((c) => [...c.rules, ...(c.structural ?? [])].map((r) => r.ruleSource)),
    );
    for (const mode of ['replays', 'tree']) {
      const keys = new Set<string>();
      for (const l of labels[mode]!) {
        const key = `${l.commit ?? ''}\t${l.rule_source}\t${l.path}\t${l.text}`;
        assert.ok(!keys.has(key), `${mode}: labelled twice: ${key}`);
        keys.add(key);
        assert.ok(sources.has(l.rule_source), `${mode}: ${l.rule_source} is no rule of the bundle`);
        assert.equal(typeof l.label, 'boolean');
        assert.ok(l.reason.trim().length > 0, `${mode}: ${l.path}: a reason`);
        assert.equal(l.text, l.text.trim());
        if (!l.label) assert.ok(CATEGORIES.includes(l.category ?? ''), `${mode}: ${l.path}: category ${l.category}`);
      }
    }
  });

  test(`${project}: every line labelled a true violation is found when a commit adds it`, async () => {
    // One file per labelled line, beside the original (so its rule's paths and relative imports
    // hold), so that a line that is no program alone cannot stop another from parsing.
    const truths = new Map<string, Label>();
    for (const l of all)
      if (l.label && /^[^()]*(\([^()]*\)[^()]*)*$/.test(l.text)) truths.set(`${l.rule_source}\t${l.text}`, l);
    const files: Record<string, string> = {};
    const expected: Array<{ path: string; rule: string }> = [];
    for (const [i, l] of [...truths.values()].entries()) {
      const path = join(dirname(l.path), `l${i}_${basename(l.path)}`);
      files[path] = `${l.text}\n`;
      expected.push({ path, rule: l.rule_source });
    }
    assert.ok(expected.length >= 2, `${expected.length} true lines`);
    const repo = repos();
    repo.commit('empty');
    repo.commit('the labelled lines', files);
    const run = await runCli(['review', '--range', 'HEAD~1..HEAD', '--knowledge', knowledge, '--format', 'json'], {
      cwd: repo.dir,
    });
    const found = (JSON.parse(run.stdout) as { findings: Array<{ path: string; rule_source: string }> }).findings;
    const missed = expected.filter((e) => !found.some((f) => f.path === e.path && f.rule_source === e.rule));
    assert.deepEqual(missed, [], run.stderr);
  });
}
