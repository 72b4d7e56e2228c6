/**
 * revtrail's entries in a team's lefthook and pre-commit config (lib/install/manager-config.ts):
 * for configs of any shape the team writes (indentation, comments, hooks of their own, blank
 * lines, the file's last newline missing), adding keeps every line of the team's in its order
 * and bytes, a second add changes nothing, the entries read back as present, and taking them
 * out gives the text back byte for byte without the install record.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse } from 'yaml';
import {
  addLefthook,
  addPreCommit,
  lefthookMissing,
  preCommitState,
  removeLefthook,
  type ManagedHook,
} from '../../lib/install/manager-config.js';

const HOOKS: ManagedHook[] = [
  { hook: 'commit-msg', stdin: false, script: '.revtrail-hooks/commit-msg' },
  { hook: 'pre-push', stdin: true, script: '.revtrail-hooks/pre-push' },
];

const comment = fc.constantFrom('', '   # the linter', ' # keep', '');
const gitHook = fc.constantFrom('pre-commit', 'commit-msg', 'pre-push', 'post-merge');

/** A team's lefthook.yml: some hooks with commands (and maybe scripts of theirs), comments, blank lines. */
const lefthookConfig = fc
  .record({
    indent: fc.constantFrom(2, 4),
    lead: fc.constantFrom('', '# team hooks\n', '# EXAMPLE USAGE:\n#\n#   pre-push:\n#     jobs:\n'),
    hooks: fc.uniqueArray(
      fc.record({
        name: gitHook,
        parallel: fc.boolean(),
        commands: fc.uniqueArray(fc.constantFrom('lint', 'test', 'msg'), { minLength: 1, maxLength: 2 }),
        scripts: fc.boolean(),
        note: comment,
      }),
      { selector: (h) => h.name, maxLength: 3 },
    ),
    blank: fc.boolean(),
    trailing: fc.constantFrom('', '# end\n'),
    lastNewline: fc.boolean(),
  })
  .map(({ indent, lead, hooks, blank, trailing, lastNewline }) => {
    const i = (n: number) => ' '.repeat(indent * n);
    let text = lead;
    for (const h of hooks) {
      text += `${h.name}:\n`;
      if (h.parallel) text += `${i(1)}parallel: true\n`;
      text += `${i(1)}commands:\n`;
      for (const c of h.commands) text += `${i(2)}${c}:\n${i(3)}run: echo ${c} {1}${h.note}\n`;
      if (h.scripts) text += `${i(1)}scripts:\n${i(2)}"team.sh":\n${i(3)}runner: bash\n`;
      if (blank) text += '\n';
    }
    text += trailing;
    return lastNewline || !text.endsWith('\n') ? text : text.slice(0, -1);
  });

/** The team's lines appear in `edited` in their order, each unchanged. */
function keepsLines(team: string, edited: string): boolean {
  const lines = edited.split('\n');
  let at = 0;
  for (const line of team.split('\n').filter(Boolean)) {
    at = lines.indexOf(line, at);
    if (at === -1) return false;
    at += 1;
  }
  return true;
}

test('lefthook: revtrail added in place keeps every line of the team, reads back, adds once, and comes out byte for byte', () => {
  fc.assert(
    fc.property(lefthookConfig, (team) => {
      const edited = addLefthook(team, HOOKS);
      assert.ok(keepsLines(team, edited), edited);
      assert.deepEqual(lefthookMissing(edited, ['commit-msg', 'pre-push']), []);
      assert.equal(addLefthook(edited, HOOKS), edited);
      const parsed = parse(edited) as Record<string, { scripts?: Record<string, { use_stdin?: boolean }> }>;
      assert.equal(parsed['pre-push']?.scripts?.revtrail?.use_stdin, true);
      assert.ok(parsed['commit-msg']?.scripts?.revtrail);
      const out = removeLefthook(edited);
      // A last line without its newline gets one where revtrail's lines went after it; that one stays.
      assert.ok(out === team || (!team.endsWith('\n') && out === `${team}\n`), JSON.stringify({ team, out }));
    }),
    { numRuns: 300 },
  );
});

/** A team's .pre-commit-config.yaml: local hooks with and without stages, some top-level keys, either list style. */
const preCommitConfig = fc
  .record({
    types: fc.constantFrom(null, '[pre-commit]', '[pre-commit, post-checkout]', 'block'),
    stages: fc.boolean(),
    dash: fc.constantFrom('  - ', '-   '),
    ids: fc.uniqueArray(fc.constantFrom('flake8', 'black', 'codespell'), { minLength: 1, maxLength: 3 }),
    staged: fc.boolean(),
    note: comment,
  })
  .map(({ types, stages, dash, ids, staged, note }) => {
    let text = '# our checks\n';
    if (types === 'block') text += 'default_install_hook_types:\n  - pre-commit\n';
    else if (types) text += `default_install_hook_types: ${types}\n`;
    if (stages) text += 'default_stages: [pre-commit]\n';
    const pad = ' '.repeat(dash.length);
    text += `repos:\n${dash}repo: local\n${pad}hooks:\n`;
    for (const id of ids) {
      text += `${pad}${dash.trim()} id: ${id}${note}\n`;
      text += `${pad}  name: ${id}\n${pad}  entry: ${id}\n${pad}  language: system\n`;
      if (staged) text += `${pad}  stages: [pre-commit]\n`;
    }
    return text;
  });

test('pre-commit: revtrail added in place keeps every line of the team, installs its hook types, keeps stage-less hooks where they ran, adds once', () => {
  fc.assert(
    fc.property(preCommitConfig, fc.boolean(), (team, oldStages) => {
      const edited = addPreCommit(team, HOOKS, oldStages);
      // A flow list gains items inside its brackets: that line changes, every other stays.
      const flowTypes = /^default_install_hook_types: \[.*\]$/m.exec(team)?.[0];
      assert.ok(keepsLines(flowTypes ? team.replace(flowTypes, '') : team, edited), edited);
      const state = preCommitState(edited, ['commit-msg', 'pre-push']);
      assert.deepEqual(state.missing, []);
      assert.deepEqual(state.notInstalled, []);
      assert.deepEqual(state.loose, [], 'no hook of the team runs at commit-msg or pre-push');
      const before = preCommitState(team, []).types;
      assert.deepEqual(state.types.slice(0, before.length), before, "the team's hook types kept, first");
      assert.equal(addPreCommit(edited, HOOKS, oldStages), edited);
    }),
    { numRuns: 300 },
  );
});
