/**
 * What a push carries beside files and messages, for the credential rules (docs/hooks.md "Push",
 * issue 58 item 6): each pushed commit's header lines as git stores them (author, committer,
 * any extra header a crafted commit holds: `mergetag` with its tagger, `encoding`, a made-up
 * one) and an annotated tag's header lines (its tagger). A key there leaves with the push as
 * surely as one in a file. Read with one `git cat-file --batch`; `tree`, `parent` and `object`
 * lines name objects only and are left out. Each commit becomes a file `(metadata of commit <12 hex>)`.
 */
import { catFileBatch, run } from '../core/git/commands.js';
import { addedFileDiff, messagePath } from './push-commits.js';

/** The most bytes of one object's header lines reviewed (as a message's cap, ./push-commits.ts). */
const HEADER_BYTES = 1024 * 1024;

/** The name a commit's or tag's header lines go by in findings. */
export function metadataPath(kind: 'commit' | 'tag', name: string): string {
  return `(metadata of ${kind} ${name})`;
}

/**
 * The header lines of a commit or tag object, without the lines naming objects and without a
 * signature that is only one (armor around base64: nothing else can hide there, and its base64
 * would hold some credential rule's needle, sending every signed commit to the full review);
 * continuation lines unindented.
 */
export function headerLines(content: Buffer): string {
  const end = content.indexOf('\n\n');
  const text = content.toString('utf8', 0, Math.min(end === -1 ? content.length : end, HEADER_BYTES));
  const fields: string[][] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith(' ') && fields.length) fields.at(-1)!.push(line.slice(1));
    else fields.push([line]);
  }
  return fields
    .filter((field) => !/^(?:tree|parent|object) [0-9a-f]+$/.test(field[0]!) && !onlySignature(field))
    .flat()
    .join('\n');
}

const SIGNATURE_HEADER = /^gpgsig(?:-sha256)? -----BEGIN (?:PGP SIGNATURE|SSH SIGNATURE|SIGNED MESSAGE)-----$/;

function onlySignature(field: readonly string[]): boolean {
  if (!SIGNATURE_HEADER.test(field[0]!) || !/^-----END [A-Z ]+-----$/.test(field.at(-1) ?? '')) return false;
  return field.slice(1, -1).every((line) => /^[A-Za-z0-9+/=]*$/.test(line));
}

/**
 * The pushed commits' header lines as diff text that adds one file per commit, and an annotated
 * tag's (its header lines and message) when `tag` names one ('' when none): one git process.
 */
export async function commitMetadata(
  top: string,
  commits: readonly string[],
  tag?: { oid: string; ref: string },
): Promise<string> {
  const names = tag ? [...commits, tag.oid] : commits;
  if (names.length === 0) return '';
  const objects = await run(catFileBatch(names), { cwd: top });
  const texts = commits.map((commit) => {
    const object = objects.get(commit);
    return object?.type === 'commit'
      ? addedFileDiff(metadataPath('commit', commit.slice(0, 12)), headerLines(object.content))
      : '';
  });
  const tagObject = tag ? objects.get(tag.oid) : null;
  if (tag && tagObject?.type === 'tag') texts.push(tagTexts(tag.ref, tagObject.content));
  return texts.join('');
}

/** An annotated tag's header lines (its tagger) and its message, as diff text. */
export function tagTexts(ref: string, content: Buffer): string {
  return (
    addedFileDiff(metadataPath('tag', ref), headerLines(content)) +
    addedFileDiff(messagePath('tag', ref), tagMessage(content))
  );
}

/** The message of an annotated tag object (what follows its header lines), without a signature. */
function tagMessage(content: Buffer): string {
  const text = content.toString('utf8');
  const start = text.indexOf('\n\n');
  return start === -1 ? '' : text.slice(start + 2);
}
