/**
 * The registry's lazy half (docs/cli.md "Commands"): each command's handlers, in a module of
 * its own under ../run/, loaded when that command runs. A handler module imports the stages it
 * calls statically; this map is where the CLI's laziness lives, so `revtrail --help` and every
 * other command load none of them.
 */
import type { CliContext } from './command.js';

type Handler = (args: never, context: CliContext) => Promise<number>;

const modules = {
  init: () => import('./run/init.js'),
  knowledge: () => import('./run/knowledge.js'),
  review: () => import('./run/review.js'),
  rules: () => import('./run/rules.js'),
  baseline: () => import('./run/baseline.js'),
  mine: () => import('./run/mine.js'),
  candidates: () => import('./run/candidates.js'),
  stats: () => import('./run/stats.js'),
  org: () => import('./run/org.js'),
  ci: () => import('./run/ci.js'),
  demo: () => import('./run/demo.js'),
  install: () => import('./run/install.js'),
  doctor: () => import('./run/doctor.js'),
  uninstall: () => import('./run/uninstall.js'),
  hook: () => import('./run/hook.js'),
  verdict: () => import('./run/verdict.js'),
  trust: () => import('./run/trust.js'),
  trailers: () => import('./run/trailers.js'),
  lsp: () => import('./run/lsp.js'),
} satisfies Record<string, () => Promise<{ handlers: Record<string, Handler> }>>;

type Modules = typeof modules;
type HandlersOf<F extends keyof Modules> = Awaited<ReturnType<Modules[F]>>['handlers'];

/** A command record's `run`: loads `file`'s handler module and runs its handler `name` (typed as that handler). */
export function lazyRun<F extends keyof Modules, N extends keyof HandlersOf<F> & string>(
  file: F,
  name: N,
): HandlersOf<F>[N] {
  const run: Handler = async (args, context) => {
    const handlers = (await modules[file]()).handlers as Record<string, Handler>;
    return handlers[name]!(args, context);
  };
  return run as HandlersOf<F>[N];
}
