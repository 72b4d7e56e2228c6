/** Configuration: values read and written, the remotes' keys, the committer identity, and `interpret-trailers`, which runs in settings given here. */
import type { GitCommand } from '../run.js';
import { bytes, succeeds, text } from './shape.js';
import { parseConfigValue, parseRemoteConfig, type RemoteConfig } from './parse.js';
import { SEPARATOR_CONFIG } from './log.js';

/** One configuration value (every scope git reads), or null when unset. */
export function configValue(key: string): GitCommand<string | null> {
  return { args: ['config', '--get', key], okCodes: [1], parse: (a) => parseConfigValue(a.text, a.status) };
}

/** `key`'s value with its scope (`<scope>\t<value>` as `--show-scope` prints it), or null when unset. */
export function scopedConfigValue(key: string): GitCommand<string | null> {
  return {
    args: ['config', '--show-scope', '--get', key],
    okCodes: [1],
    parse: (a) => (a.status === 0 ? a.text : null),
  };
}

/** Sets `key` in the repository's own config. */
export function setLocalConfig(key: string, value: string): GitCommand<string> {
  return text(['config', '--local', key, value]);
}

/** Unsets `key` in the repository's own config (already unset, exit 5: nothing to do). */
export function unsetLocalConfig(key: string): GitCommand<string> {
  return text(['config', '--local', '--unset', key], { okCodes: [5] });
}

/** `git config -z --get-regexp ^remote\.`: every remote's keys in one process (none: exit 1). */
export const remoteConfig: GitCommand<RemoteConfig> = {
  args: ['config', '-z', '--get-regexp', '^remote\\.'],
  okCodes: [1],
  parse: (a) => parseRemoteConfig(a.status === 0 ? a.text : ''),
};

/** Whether git can name a committer (what a commit or `git notes add` needs): `git var` fails as a commit would. */
export const committerKnown: GitCommand<boolean> = succeeds(['var', 'GIT_COMMITTER_IDENT'], { okCodes: [128] });

/** How a message goes through `interpret-trailers`: its comment character, and how long git may take. */
export interface TrailerSettings {
  commentChar?: string;
  /** git 2.39 can spin forever on some inputs: killed after this (default 10 s) and reported as a GitError. */
  timeoutMs?: number;
}

// Explicit settings: the user's trailer.separators (`=`) would make git misread the row. Bytes
// in and out: the message keeps its encoding.
function interpretTrailers(args: readonly string[], message: Buffer, settings: TrailerSettings): GitCommand<Buffer> {
  const config = [
    ...SEPARATOR_CONFIG,
    ...(settings.commentChar ? ['-c', `core.commentChar=${settings.commentChar}`] : []),
  ];
  return bytes([...config, 'interpret-trailers', ...args], { input: message, timeoutMs: settings.timeoutMs ?? 10_000 });
}

/**
 * `message` with each of `trailers` (`Key: value` lines) added at the end of its trailer block
 * unless the same line is there (`--if-exists addIfDifferent`); `--no-divider` keeps a `---`
 * line in the body from ending the message.
 */
export function addTrailers(
  message: Buffer,
  trailers: readonly string[],
  settings: TrailerSettings,
): GitCommand<Buffer> {
  const args = ['--where', 'end', '--if-exists', 'addIfDifferent', '--if-missing', 'add', '--no-divider'];
  for (const line of trailers) args.push('--trailer', line);
  return interpretTrailers(args, message, settings);
}

/** git's own view of `message`'s trailers (`Key: value` per line, unfolded). */
export function parsedTrailers(message: Buffer, settings: TrailerSettings): GitCommand<Buffer> {
  return interpretTrailers(['--parse', '--no-divider'], message, settings);
}
