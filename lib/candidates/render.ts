/** A candidate as an OKF concept file, from templates/candidate.md (docs/gate.md). */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toYaml, yamlScalar } from './yaml.js';
import type { KnowledgeCandidate } from './model.js';

declare const REVTRAIL_VERSION: string | undefined;

/** The package folder: the first ancestor of this module holding `templates/` (bundled or not). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'templates', 'candidate.md'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('templates/candidate.md not found beside the revtrail package');
}

export async function revtrailVersion(): Promise<string> {
  if (typeof REVTRAIL_VERSION === 'string') return REVTRAIL_VERSION;
  const pkg = JSON.parse(await readFile(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

export async function loadTemplate(): Promise<string> {
  return readFile(join(packageRoot(), 'templates', 'candidate.md'), 'utf8');
}

export function renderCandidate(template: string, candidate: KnowledgeCandidate, description: string, version: string): string {
  const x = {
    id: candidate.id,
    rule_source: candidate.rule_source,
    category: candidate.category,
    trust_level: candidate.trust_level,
    status: candidate.status,
    generated_at: candidate.generated_at,
    gate: candidate.gate,
    evidence: candidate.evidence,
  };
  const xBlock = toYaml(x, 2);
  const values: Record<string, string> = {
    title: yamlScalar(candidate.title),
    description: yamlScalar(description),
    generated_by: yamlScalar(`revtrail/${version}`),
    generated_at: yamlScalar(candidate.generated_at),
    x: xBlock,
    heading: candidate.title.replace(/\s+/g, ' '),
    body: candidate.body,
  };
  const text = template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);
  return text.endsWith('\n') ? text : `${text}\n`;
}
