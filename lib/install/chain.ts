/**
 * Hooks already there (docs/hooks.md): husky's core.hooksPath makes git stop running the hooks
 * of the folder it ran before (.git/hooks, or another core.hooksPath). Each such hook keeps
 * running from its .husky/ file through a marked chain block; uninstall takes the blocks out and
 * hands the folder back.
 */
import { CHAIN_MARKS, findBlock, insertBlock, REVTRAIL_MARKS, shQuote } from './block.js';
import { join } from 'node:path';
import { readRegularFile } from '../core/fs/read.js';
import { hookFiles, type ExistingHook, type HookSetup } from './existing.js';

/** The hooks of `setup` that must be chained: any hook a tool other than husky or revtrail wrote. */
export function hooksToChain(setup: Pick<HookSetup, 'hooks'>): ExistingHook[] {
  return setup.hooks.filter((h) => h.owner !== 'revtrail' && h.owner !== 'husky');
}

/** The chain block for `hook` of the folder `setup` names. */
export function chainBlock(setup: Pick<HookSetup, 'gitHooks' | 'shown'>, hook: string): string {
  // .git/hooks is each clone's own: found at run time (a linked worktree shares the common one).
  const path = setup.gitHooks ? `"$(git rev-parse --git-common-dir)/hooks/${hook}"` : shQuote(`${setup.shown}/${hook}`);
  return [
    CHAIN_MARKS.begin,
    `# The ${hook} hook this repository ran before revtrail install (${setup.gitHooks ? '.git/hooks' : setup.shown}),`,
    '# still run now that git runs .husky/_ (docs/hooks.md, "Hooks already there").',
    `revtrail_prev=${path}`,
    'if [ -x "$revtrail_prev" ]; then',
    '  "$revtrail_prev" "$@" || exit $?',
    'fi',
    CHAIN_MARKS.end,
    '',
  ].join('\n');
}

/**
 * `text` (a .husky/ hook file, maybe empty) with the chain block in: replaced where it is; else
 * right before revtrail's block when that block goes at the end (`revtrailAt`), so the team's
 * check sees the message before revtrail adds trailers; else at the end, after a block at the
 * top (a stdin hook's, which replays stdin for what follows).
 */
export function withChain(text: string, chain: string, revtrailAt: 'top' | 'end'): string {
  const all = text.split('\n');
  const span = findBlock(text, CHAIN_MARKS);
  if (span) {
    all.splice(span.begin, span.end - span.begin + 1, ...chain.replace(/\n$/, '').split('\n'));
    return all.join('\n');
  }
  const ours = findBlock(text, REVTRAIL_MARKS);
  if (ours && revtrailAt === 'end') {
    const head = all.slice(0, ours.begin).join('\n').replace(/\n+$/, '');
    return `${head ? `${head}\n\n` : ''}${chain}\n${all.slice(ours.begin).join('\n')}`;
  }
  return insertBlock(text, chain, 'end');
}

/**
 * Hooks of .git/hooks that git no longer runs once core.hooksPath is husky's and that no
 * .husky/ file chains (added after install, or in a teammate's clone), named for a message.
 */
export function unchainedHooks(top: string, commonDir: string): string[] {
  return hooksToChain({ hooks: hookFiles(join(commonDir, 'hooks')) })
    .filter((h) => {
      try {
        const text = readRegularFile(join(top, '.husky', h.hook), { maxBytes: 1024 * 1024 }).bytes.toString('utf8');
        return !findBlock(text, CHAIN_MARKS);
      } catch {
        return true;
      }
    })
    .map((h) => `.git/hooks/${h.hook}${h.owner === 'own' ? '' : ` (${h.owner})`}`);
}
