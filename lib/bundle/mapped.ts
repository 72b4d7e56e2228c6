/**
 * One document of the doc map to a Concept (docs/bundle.md "Doc map"). Unlike a bundle concept
 * it needs no frontmatter and no `type`: a plain design document is the common case. Where a
 * frontmatter exists, its `id`, `title`, `type`, `description` and `rules` are read as a bundle
 * concept's; what governs the document is its mappings' globs, added by the caller (so the
 * result is a pure function of path and text, and the bundle cache can keep it).
 */
import { readFrontmatter, splitFrontmatter } from './frontmatter.js';
import { firstHeading, globReader, readRules, type ConceptResult, type Problem } from './concept.js';
import type { StructuralRule } from './structural.js';
import { bundleMessages as m } from '../messages/bundle.js';

/** The `type` of a mapped document whose frontmatter names none. */
export const MAPPED_TYPE = 'Document';

/** `file` is the repo-relative path (POSIX), e.g. `docs/adr/0001-store.md`. */
export async function buildMappedConcept(file: string, text: string): Promise<ConceptResult> {
  const problems: Problem[] = [];
  const pathId = file.replace(/\.md$/i, '');
  // No frontmatter (or a lone `---` rule that opens the text): the whole text is the body.
  if (!splitFrontmatter(text).ok) {
    const body = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n/g, '\n');
    return { concept: plain(file, pathId, MAPPED_TYPE, firstHeading(body) ?? pathId, null, body), problems, idLine: 1 };
  }
  const fm = await readFrontmatter(text);
  // A frontmatter that is there but cannot be read may hold rules: skipped, as a bundle concept is.
  if (!fm.ok) return { concept: null, problems: [{ level: 'warning', line: fm.line, message: fm.message }], idLine: 1 };
  const { data, lineAt } = fm;
  let id = pathId;
  if ('id' in data) {
    if ((typeof data.id === 'string' && data.id.trim() !== '') || typeof data.id === 'number')
      id = String(data.id).trim();
    else problems.push({ level: 'warning', line: lineAt(['id']), message: m.badId });
  }
  const x =
    data.x !== null && typeof data.x === 'object' && !Array.isArray(data.x) ? (data.x as Record<string, unknown>) : {};
  const rulesAt = 'rules' in x ? ['x', 'rules'] : 'rules' in data ? ['rules'] : null;
  const valueAt = (path: Array<string | number>) => (path[0] === 'x' ? x[path[1] as string] : data[path[0] as string]);
  const structural: StructuralRule[] = [];
  const rules = readRules(id, rulesAt, valueAt, lineAt, globReader(lineAt, problems), problems, structural);
  const type = typeof data.type === 'string' && data.type.trim() !== '' ? data.type.trim() : MAPPED_TYPE;
  const title =
    typeof data.title === 'string' && data.title.trim() !== '' ? data.title.trim() : (firstHeading(fm.body) ?? id);
  const description = typeof data.description === 'string' ? data.description : null;
  const concept = plain(file, id, type, title, description, fm.body);
  concept.rules = rules;
  if (structural.length) concept.structural = structural;
  return { concept, problems, idLine: 'id' in data ? lineAt(['id']) : 1 };
}

function plain(
  file: string,
  id: string,
  type: string,
  title: string,
  description: string | null,
  body: string,
): NonNullable<ConceptResult['concept']> {
  return {
    id,
    file,
    type,
    title,
    description,
    body: body.replace(/^\s*\n/, '').trimEnd(),
    paths: [],
    domain: [],
    tags: [],
    rules: [],
    mapped: true,
  };
}
