/**
 * `--format github`: GitHub Actions workflow commands, one annotation per finding
 * (`::error file=…,line=…,endLine=…,title=…::message`), which the runner shows on the pull
 * request's diff with no upload step (docs/review.md "Output"). Escaping as the Actions toolkit
 * does it (@actions/core command.ts): `%`, CR and LF in the message; those and `:` and `,` in a
 * property value.
 */
import type { Finding, ReviewResult } from '../review/types.js';
import { BLOCKING_SEVERITIES } from '../core/vocabulary.js';
import { escapeControl } from '../core/output.js';

/** A workflow command's message. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

type Command = 'error' | 'warning' | 'notice';

/**
 * Blocking findings (and `test`, which blocks unless softTests) are errors; a calibrated one (it
 * no longer blocks) and suggestions are warnings; nits and questions notices.
 */
export function commandOf(f: Finding): Command {
  if ((BLOCKING_SEVERITIES as readonly string[]).includes(f.severity) || f.severity === 'test')
    return f.calibration ? 'warning' : 'error';
  return f.severity === 'suggestion' ? 'warning' : 'notice';
}

function command(name: Command, properties: Record<string, string | number | undefined>, message: string): string {
  const props = Object.entries(properties)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',');
  return `::${name}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}

export function formatGithub(result: ReviewResult, options: { terminal?: boolean } = {}): string {
  const lines: string[] = [];
  for (const f of result.findings) {
    const start = Math.min(f.start_line, f.line);
    lines.push(
      command(
        commandOf(f),
        {
          file: f.path,
          line: start,
          endLine: f.line > start ? f.line : undefined,
          title: `${f.severity}: ${f.title} (${f.rule_source})`,
        },
        `${f.title}\n\n${f.body}\n\n${f.rule_source} ${f.id}${f.calibration ? ' (calibrated: does not block)' : ''}`,
      ),
    );
  }
  for (const w of result.warnings) lines.push(command('warning', { title: 'revtrail' }, w));
  lines.push(`revtrail: ${result.event}: ${result.summary.split('\n')[0]}`);
  const text = `${lines.join('\n')}\n`;
  // To a terminal nothing raw (an ESC in a path); files and pipes get the commands exact.
  return options.terminal ? escapeControl(text, { keepNewlines: true }) : text;
}
