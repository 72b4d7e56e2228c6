/**
 * The files of a refinement draft (docs/gate.md "Refinements"): the document edited in a
 * temporary copy, the patch git writes for it (`git diff --no-index`, paths as the repository
 * names them, so `git apply` takes it from the top level), and a Markdown page with the evidence
 * and the patch. The document itself is never written.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readRegularFile } from '../core/fs/read.js';
import { MAX_FILE_BYTES } from '../bundle/read.js';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { filePatch, run } from '../core/git/commands.js';
import type { Bundle } from '../bundle/types.js';
import { editedDocument, person, ruleOf, type RefinementEvidence, type RefinementTrial } from './refine.js';
import { refineMessages as m } from '../messages/candidates.js';
import { toYaml, yamlScalar } from './yaml.js';

export interface RefinementFile {
  trial: RefinementTrial;
  /** The page and the patch, by file name in the candidates folder. */
  page: { name: string; text: string };
  patch: { name: string; text: string };
}

/** The drafts of the passed trials; a document revtrail cannot edit is a note instead. */
export async function draftRefinements(
  top: string,
  bundle: Bundle,
  trials: ReadonlyArray<RefinementTrial & { evidence: RefinementEvidence[] }>,
  out: string,
): Promise<{ files: RefinementFile[]; notes: string[] }> {
  const files: RefinementFile[] = [];
  const notes: string[] = [];
  for (const trial of trials) {
    if (!trial.passed) continue;
    const owned = ruleOf(bundle, trial.rule_source);
    if (!owned) continue;
    const path = owned.concept.mapped ? resolve(top, owned.concept.file) : resolve(bundle.root, owned.concept.file);
    let text: string;
    try {
      // As the bundle reads it: a regular file under the bundle's cap.
      text = readRegularFile(path, { maxBytes: MAX_FILE_BYTES }).bytes.toString('utf8');
    } catch {
      continue;
    }
    const edited = owned.concept.mapped ? null : editedDocument(text, trial, owned);
    if (edited === null) {
      notes.push(m.notEditable(trial.document));
      continue;
    }
    const rel = relative(top, path).split('\\').join('/');
    const patchText = await patchOf(rel, text, edited);
    const base = `refine-${trial.kind}-${slug(trial.rule_source)}-${slug(trial.folder)}`;
    const patchName = `${base}.patch`;
    files.push({
      trial,
      patch: { name: patchName, text: patchText },
      page: {
        name: `${base}.md`,
        text: page(trial, patchText, relative(top, join(out, patchName)).split('\\').join('/')),
      },
    });
  }
  return { files, notes };
}

/** git's patch from `before` to `after` of the file `rel`, headed `a/rel` and `b/rel`. */
async function patchOf(rel: string, before: string, after: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'revtrail-refine-'));
  try {
    for (const [side, text] of [
      ['a', before],
      ['b', after],
    ] as const) {
      const file = join(dir, side, rel);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    // --no-index compares two files outside any repository; exit 1 means "they differ".
    return await run(filePatch(`a/${rel}`, `b/${rel}`), { cwd: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

function page(trial: RefinementTrial & { evidence?: RefinementEvidence[] }, patch: string, patchFile: string): string {
  const evidence = trial.evidence ?? [];
  const people = new Set(evidence.map((e) => person(e.author))).size;
  const x = {
    kind: trial.kind,
    rule_source: trial.rule_source,
    document: trial.document,
    glob: trial.glob,
    globs: trial.globs,
    threads: trial.threads,
    trust_level: 'inferred',
    status: 'generated',
  };
  return [
    '---',
    'type: Refinement candidate',
    `title: ${yamlScalar(m.title(trial.kind, trial.rule_source, trial.folder))}`,
    'x:',
    toYaml(x, 2),
    '---',
    `# ${m.title(trial.kind, trial.rule_source, trial.folder)}`,
    '',
    m.intro(trial.kind, trial.rule_source, trial.document, trial.folder, evidence.length, people),
    '',
    m.evidenceHeading,
    '',
    ...evidence.map((e) => m.evidence(e)),
    '',
    m.changeHeading,
    '',
    m.changeIntro(trial.kind, trial.globs, patchFile),
    '',
    '```diff',
    patch.trimEnd(),
    '```',
    '',
    m.reviewHeading,
    '',
    m.review,
    '',
  ].join('\n');
}
