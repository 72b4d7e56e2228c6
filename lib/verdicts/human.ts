/**
 * A finding a person writes (`revtrail verdict --new FILE:LINE "what" --cite DOC-ID`, docs/gate.md
 * "Findings people write"): one OPEN row queued like a verdict, recorded by the next commit,
 * then answered, mined and gated like any finding. Its rule_source is `human/<doc>:<topic>`
 * (the cited document's id, slashes written as dots, which the grammar allows one of) or
 * `human:<topic>`; threads of one rule_source that pass the gate become a candidate for a rule
 * the document does not hold yet.
 */
import { createHash } from 'node:crypto';
import { readRegularFile } from '../core/fs/read.js';
import { resolve } from 'node:path';
import { openWorkspace, type Workspace } from '../workspace/index.js';
import { peel, run } from '../core/git/commands.js';
import { InputError, UsageError } from '../core/errors.js';
import { isRepoPath, trailerRowSchema, type TrailerRow } from '../record/row.js';
import { RULE_SOURCE_PATTERN } from '../core/rule-source.js';
import { CATEGORIES, SEVERITIES, type Category, type Severity } from '../core/vocabulary.js';
import { enqueueVerdict, type QueuedVerdict } from './queue.js';
import { verdictMessages as m } from '../messages/verdicts.js';

/** The largest file whose line names a person's finding (larger: the ID is made without the line's text). */
const MAX_LINE_FILE_BYTES = 16 * 1024 * 1024;

export interface HumanFindingInput {
  /** `FILE:LINE` or `FILE:N-M`, as the repository names the file. */
  where: string;
  what: string;
  /** The document the finding is about (a concept id of the bundle), if any. */
  cite?: string;
  /** What kind of finding this is (`missing-timeout`); default `unwritten-rule` with a citation. */
  topic?: string;
  severity?: string;
  category?: string;
}

/** The rule_source of a person's finding. */
export function humanRuleSource(cite: string | undefined, topic: string | undefined): string {
  const id = topic ?? 'unwritten-rule';
  return cite ? `human/${cite.replace(/\//g, '.')}:${id}` : `human:${id}`;
}

/**
 * Queues a person's finding as an OPEN row for the next commit. `workspace`: the caller's, already
 * open; else one is opened from `cwd` once the input is known good.
 */
export async function recordHumanFinding(
  cwd: string,
  input: HumanFindingInput,
  workspace?: Workspace,
): Promise<QueuedVerdict> {
  const at = /^(.+):(\d+(?:-\d+)?)$/.exec(input.where.trim());
  if (!at || !isRepoPath(at[1]!)) throw new UsageError(m.newWhere(input.where), { remedy: m.newRemedy });
  const [, file, line] = at as unknown as [string, string, string];
  const what = input.what.replace(/\s+/g, ' ').trim();
  if (!what) throw new UsageError(m.newWhat, { remedy: m.newRemedy });
  if (!input.cite && !input.topic) throw new UsageError(m.newCiteOrTopic, { remedy: m.newRemedy });
  const severity = (input.severity ?? 'suggestion') as Severity;
  const category = (input.category ?? 'architecture') as Category;
  if (!SEVERITIES.includes(severity)) throw new UsageError(m.newChoice('severity', input.severity!, SEVERITIES), {});
  if (!CATEGORIES.includes(category)) throw new UsageError(m.newChoice('category', input.category!, CATEGORIES), {});
  const ws = workspace ?? (await openWorkspace(cwd));
  const repo = ws.repo!;
  if (input.cite) {
    // The cited document must be one of the bundle's (its config's `knowledge`, with the doc map):
    // a configuration that cannot be read cannot say which, so it is the error here.
    if (ws.configError) throw ws.configError;
    const docs = (await ws.bundle()).concepts.map((c) => c.id);
    if (!docs.includes(input.cite)) throw new InputError(m.newUnknownDoc(input.cite), { remedy: m.newDocs(docs) });
  }
  const ruleSource = humanRuleSource(input.cite, input.topic);
  if (!RULE_SOURCE_PATTERN.test(ruleSource)) throw new UsageError(m.newTopic(ruleSource), { remedy: m.newRemedy });
  // The line's text names the finding, as a rule finding's does: the same line and words, the same ID.
  let text = '';
  try {
    // A regular file within the review's cap (a FIFO or a device named here is no hang).
    const bytes = readRegularFile(resolve(repo.top, file), { maxBytes: MAX_LINE_FILE_BYTES }).bytes;
    text = bytes.toString('utf8').split('\n')[Number(line.split('-')[0]) - 1]?.trim() ?? '';
  } catch {
    text = '';
  }
  const id = `rf-${createHash('sha1').update(`human\0${ruleSource}\0${file}\0${text}\0${what}`).digest('hex').slice(0, 10)}`;
  const row: TrailerRow = trailerRowSchema.parse({
    id,
    file,
    line,
    rule_source: ruleSource,
    category,
    severity,
    issue: what,
    verdict: 'OPEN',
    rationale: '',
  });
  const anchor = await run(peel('HEAD'), { cwd: repo.top });
  const entry: QueuedVerdict = {
    id,
    verdict: 'OPEN',
    rationale: '',
    row,
    queuedAt: new Date().toISOString(),
    ...(anchor ? { anchor } : {}),
    authored: true,
  };
  await enqueueVerdict(repo.commonDir, entry);
  return entry;
}
