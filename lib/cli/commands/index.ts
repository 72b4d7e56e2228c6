/**
 * The registry: the only list of revtrail's commands, in the order `revtrail --help` shows them.
 * Each file of this folder is one command record; --help, the yargs setup, the README check
 * and the registry test all read this list (test/cli/registry.test.ts fails on a command file
 * that is missing here). A command file imports at load time only what --help loads anyway;
 * its handlers are in ../run/, loaded when the command runs by ../handlers.ts, the one place the
 * CLI loads lazily (docs/cli.md "Commands").
 */
import type { AnyCommand } from '../command.js';
import init from './init.js';
import knowledge from './knowledge.js';
import review from './review.js';
import mine from './mine.js';
import candidates from './candidates.js';
import stats from './stats.js';
import ci from './ci.js';
import demo from './demo.js';
import install from './install.js';
import doctor from './doctor.js';
import uninstall from './uninstall.js';
import hook from './hook.js';
import verdict from './verdict.js';
import trust from './trust.js';
import trailers from './trailers.js';
import rules from './rules.js';
import baseline from './baseline.js';
import org from './org.js';
import lsp from './lsp.js';

export const commands: readonly AnyCommand[] = [
  init,
  knowledge,
  review,
  rules,
  baseline,
  mine,
  candidates,
  stats,
  org,
  ci,
  demo,
  install,
  doctor,
  uninstall,
  hook,
  verdict,
  trust,
  trailers,
  lsp,
];
