/**
 * Whether a process call hands a shell a command built from data. The call's arguments are read
 * across lines (a multi-line `execSync(`), and a command held in a variable is followed to where
 * the visible lines build it (`const cmd = \`git checkout ${ref}\``; then `execSync(cmd)`).
 *
 * A shell is involved when the call always uses one (`exec`, `execSync`, `os.system`,
 * `os.popen`, `subprocess.getoutput`), when it is asked to (`shell: true`, `shell=True`), or when
 * the program is a shell given a command string (`spawn('sh', ['-c', …])`). Built means a
 * template or f-string that interpolates, or a string joined with a non-literal. The calls are
 * also followed through the file's own names for them (./shell-aliases.ts).
 */
import type { LineContext } from '../engine/rules.js';
import { linesAround } from '../engine/file-lines.js';
import { shellAliases } from './shell-aliases.js';

const SHELLS = /^['"`](?:\/(?:usr\/)?bin\/)?(?:sh|bash|zsh|dash|ksh|cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh)['"`]$/;
const COMMAND_FLAG = /^['"`](?:-c|\/c|\/C|-Command|-lc|-ec)['"`]$/;

function around(context: LineContext, above: number, below: number): { lines: string[]; at: number } {
  const a = context.added[context.index]!;
  return linesAround(context.chunk.file, a.line, above, below, a.text);
}

/** The text from `start` to the `)` that closes the call, skipping strings, templates and nested brackets. */
function argumentsFrom(text: string, start: number): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\') j++;
        else if (c === '`' && text[j] === '$' && text[j + 1] === '{') {
          const close = text.indexOf('}', j);
          j = close === -1 ? text.length : close;
        }
        j++;
      }
      i = j;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return text.slice(start, i);
      depth--;
    }
  }
  return text.slice(start);
}

/** Top-level comma-separated parts of an argument list. */
function splitTopLevel(args: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let from = 0;
  for (let i = 0; i < args.length; i++) {
    const c = args[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(args.slice(from, i).trim());
      from = i + 1;
    }
  }
  parts.push(args.slice(from).trim());
  return parts.filter((p) => p !== '');
}

/** An expression that builds a string from data: interpolation, or a literal joined with a non-literal. */
/** A path made of constants only: `path.join(__dirname, 'gen.js')` is no data. */
const CONSTANT_PATH =
  /\bpath\s*\.\s*(?:join|resolve)\(\s*(?:(?:__dirname|__filename|process\.cwd\(\)|[A-Z][A-Z0-9_]*|"[^"]*"|'[^']*')\s*(?:,\s*)?)+\)/g;

function built(expression: string, python: boolean): boolean {
  const e = expression.trim().replace(CONSTANT_PATH, "''");
  // [...].join(' '): a command line from an array, built when an element is not a literal.
  const joined = /^\[([\s\S]*)\]\s*\.\s*join\(\s*(["'])\s*\2\s*\)$/.exec(e);
  if (joined)
    return splitTopLevel(joined[1]!).some(
      (part) => !/^(["'`])[\s\S]*\1$/.test(part) || (part.startsWith('`') && part.includes('${')),
    );
  // A template whose every interpolation is a constant (a literal, a constant path) builds nothing from data.
  if (/^`[\s\S]*\$\{/.test(e))
    return [...e.matchAll(/\$\{([^{}]*)\}/g)].some((x) => !/^\s*(["'])[^"']*\1\s*$/.test(x[1]!));
  if (python && /^[rRbB]?[fF][rRbB]?(["'])/.test(e) && /\{(?!\{)[^{}]+\}/.test(e)) return true;
  if (python && (/["']\s*%\s*[\w(]/.test(e) || /["']\s*\.format\(/.test(e))) return true;
  // A literal and something that is not a literal, joined by +.
  return /(?:["'`]\s*\+\s*[^\s'"`]|[^\s'"`+]\s*\+\s*["'`])/.test(e);
}

/** Where the visible lines above assign `name`: what it is set to. */
function assignedAbove(lines: readonly string[], at: number, name: string): string | null {
  const assign = new RegExp(
    `(?:^|[\\s;(])(?:(?:const|let|var)\\s+)?${name.replace(/[$]/g, '\\$')}\\s*(?::\\s*\\w+\\s*)?\\+?=\\s*(.+)$`,
  );
  for (let k = at - 1; k >= 0; k--) {
    const found = assign.exec(lines[k]!);
    if (found) return found[1]!;
  }
  return null;
}

/** Built here, or an identifier the lines above build. */
function builtOrAssigned(expression: string, lines: readonly string[], at: number, python: boolean): boolean {
  if (built(expression, python)) return true;
  const name = /^[A-Za-z_$][\w$]*$/.exec(expression.trim())?.[0];
  if (!name) return false;
  const value = assignedAbove(lines, at, name);
  return value !== null && built(value, python);
}

export function notBuiltShell(match: RegExpExecArray, text: string, context: LineContext): boolean {
  const python = /\.py$/.test(context.path);
  // A call through the file's own name for it (`run(` after `import { exec as run }`) is that call.
  const written = match[0].replace(/\s+/g, '');
  const call = shellAliases(context.chunk.file, context.path).calls.get(written) ?? written;
  // Python's exec() runs Python code, not a shell: only os.* and subprocess.* count there.
  if (python && !/^(?:os|subprocess)\./.test(call)) return true;
  if (!python && context.view().code[match.index] !== text[match.index]) return true; // inside a string or comment
  const { lines, at } = around(context, 30, 6);
  const joined = lines.slice(at).join('\n');
  const args = splitTopLevel(argumentsFrom(joined, match.index + match[0].length));
  const first = args[0];
  if (first === undefined) return true;
  const always =
    /(?:^|\.)(?:exec|execSync)\($|os\.(?:system|popen)\($|subprocess\.(?:getoutput|getstatusoutput)\($/.test(call);
  const asked = args.slice(1).some((a) => /\bshell\s*(?::\s*true|=\s*True)\b/.test(a));
  if ((always || asked) && builtOrAssigned(first, lines, at, python)) return false;
  // spawn('sh', ['-c', `… ${x}`]) and subprocess.run(['bash', '-c', f'…'])
  const argv =
    python && first.startsWith('[')
      ? splitTopLevel(first.slice(1, -1))
      : [first, ...splitTopLevel((args[1] ?? '').replace(/^\[|\]$/g, ''))];
  if (SHELLS.test(argv[0] ?? '')) {
    const flag = argv.findIndex((a) => COMMAND_FLAG.test(a));
    const command = flag === -1 ? undefined : argv[flag + 1];
    if (command !== undefined && builtOrAssigned(command, lines, at, python)) return false;
  }
  return true;
}
