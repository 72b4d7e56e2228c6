/**
 * Whether the commit a hook runs for is an amend. git tells `prepare-commit-msg` "commit HEAD"
 * for a plain `--amend`, but nothing at all for `--amend -m`/`-F`: no argument, no environment
 * variable. The git process that runs the hook still holds its own command line, so it is read
 * from there (docs/record.md "Amend"): /proc on Linux (file reads, no process), `ps` elsewhere.
 * Any doubt answers "not an amend"; post-rewrite then still keeps the record.
 */
import { readFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { basename } from 'node:path';

/** How many processes up from this one git is looked for (node, sh, husky's sh, git). */
const MAX_DEPTH = 6;

interface ProcessInfo {
  ppid: number;
  argv: string[];
}

function procInfo(pid: number): ProcessInfo | null {
  try {
    // Synchronous: /proc files are in memory, and each asynchronous read is four thread-pool round trips.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`);
    // The command name sits in parentheses and may hold any character: fields follow the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const argv = cmdline.toString('utf8').split('\0');
    if (argv[argv.length - 1] === '') argv.pop();
    return { ppid: Number(fields[1]), argv };
  } catch {
    return null;
  }
}

function psInfo(pid: number): Promise<ProcessInfo | null> {
  return new Promise((resolve) => {
    execFile('ps', ['-o', 'ppid=', '-o', 'args=', '-p', String(pid)], { timeout: 2000 }, (error, stdout) => {
      const m = error ? null : /^\s*(\d+)\s+(.*)$/.exec(stdout.trim());
      // ps joins the arguments with spaces: good enough to find `commit` and `--amend`.
      resolve(m ? { ppid: Number(m[1]), argv: m[2]!.split(/\s+/) } : null);
    });
  });
}

const isGit = (argv0: string | undefined) => !!argv0 && /^git(-[a-z-]+)?(\.exe)?$/.test(basename(argv0));

/** The command line of the nearest git process above this one, or null. */
export async function gitAncestorArgv(startPid = process.ppid): Promise<string[] | null> {
  const useProc = process.platform === 'linux';
  if (process.platform === 'win32') return null;
  let pid = startPid;
  for (let depth = 0; depth < MAX_DEPTH && pid > 1; depth++) {
    const info = useProc ? await procInfo(pid) : await psInfo(pid);
    if (!info) return null;
    if (isGit(info.argv[0])) return info.argv;
    pid = info.ppid;
  }
  return null;
}

// git's global options that take the next argument as their value.
const GLOBAL_WITH_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
  '--super-prefix',
]);

/** The subcommand of a git command line and its arguments (`git -C x commit -m y` → commit). */
export function subcommandOf(argv: readonly string[]): { name: string; args: string[] } | null {
  const first = basename(argv[0] ?? '').replace(/\.exe$/, '');
  if (first.startsWith('git-')) return { name: first.slice(4), args: argv.slice(1) };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (GLOBAL_WITH_VALUE.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    return { name: a, args: argv.slice(i + 1) };
  }
  return null;
}

/** Whether `git commit ARGS` amends: the last of --amend/--no-amend wins (git takes prefixes). */
export function amends(args: readonly string[]): boolean {
  let amend = false;
  for (const a of args) {
    if (a === '--') break;
    if (/^--am(e(n(d)?)?)?$/.test(a)) amend = true;
    else if (/^--no-am(e(n(d)?)?)?$/.test(a)) amend = false;
  }
  return amend;
}

/**
 * Whether the running hook serves `git commit --amend` (an alias is resolved with `lookupAlias`,
 * called only for a subcommand git does not have built in).
 */
export async function isAmendCommit(
  lookupAlias: (name: string) => Promise<string | null>,
  argv?: string[] | null,
): Promise<boolean> {
  const line = argv === undefined ? await gitAncestorArgv() : argv;
  if (!line) return false;
  const sub = subcommandOf(line);
  if (!sub) return false;
  if (sub.name === 'commit') return amends(sub.args);
  if (BUILTINS.has(sub.name)) return false;
  const alias = await lookupAlias(sub.name);
  if (!alias || alias.startsWith('!')) return false;
  const words = alias.trim().split(/\s+/);
  return words[0] === 'commit' && amends([...words.slice(1), ...sub.args]);
}

// Commands that commit without being `git commit`: never an amend, no alias lookup.
const BUILTINS = new Set([
  'merge',
  'pull',
  'rebase',
  'cherry-pick',
  'revert',
  'am',
  'stash',
  'notes',
  'switch',
  'checkout',
  'reset',
  'push',
]);
