/**
 * The registry of commands: name, one-line description, and how to load it. A command is
 * listed here only once it works. Loading is lazy so `--help` and each command stay fast.
 */
import type { CommandEntry } from '../command.js';

export const commands: CommandEntry[] = [
  { name: 'init', describe: 'Write revtrail.config.json and a starter knowledge bundle (.okfw/); never overwrites', load: () => import('./init.js') },
  { name: 'knowledge', describe: 'Validate the knowledge bundle (check) or show which documents govern a diff (select)', load: () => import('./knowledge.js') },
  { name: 'review', describe: 'Review a diff against the knowledge bundle and the built-in rules', load: () => import('./review.js') },
  { name: 'mine', describe: 'Mine Review-Finding trailers from history into evidence records', load: () => import('./mine.js') },
  { name: 'candidates', describe: 'Knowledge candidates from finding threads that pass the promotion gate (drafts for a human)', load: () => import('./candidates.js') },
  { name: 'stats', describe: 'Counts per verdict and reject rate per rule_source (>30% investigate, <10% performing well)', load: () => import('./stats.js') },
  { name: 'ci', describe: 'Record a CI outcome for a commit in git notes: ci record pass|fail [COMMIT]', load: () => import('./ci.js') },
  { name: 'demo', describe: 'Run the end-to-end demo in a throwaway repository (npm start)', load: () => import('./demo.js') },
  { name: 'install', describe: 'Install the commit-msg and pre-push hooks through husky (idempotent)', load: () => import('./install.js') },
  { name: 'doctor', describe: 'Check that the hooks run in this clone and say what to fix', load: () => import('./doctor.js') },
  { name: 'uninstall', describe: 'Remove exactly what install added', load: () => import('./uninstall.js') },
  { name: 'hook', describe: 'Run a git hook (what the installed hooks call; revtrail hook --help lists them)', load: () => import('./hook.js') },
  { name: 'verdict', describe: 'Queue a human verdict on a finding for the next commit; --list shows open findings', load: () => import('./verdict.js') },
  { name: 'trust', describe: "Allow this clone's configured reviewer program to run (like direnv allow); --revoke forgets it", load: () => import('./trust.js') },
  { name: 'trailers', describe: 'Check the Review-Finding trailers of a commit message (trailers lint FILE|-)', load: () => import('./trailers.js') },
];
