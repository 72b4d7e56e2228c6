/**
 * The labelled quality corpus (test/fixtures/quality/*.json): positive and look-alike cases for
 * every built-in rule, written for this project from the documented formats. Shared by the test
 * that pins every case and by `npm run bench -- quality`, which scores recall and precision.
 *
 * A case: `path`, `lines` (strings, or `{repeat: n, line}`), `expect` (rule ids that must
 * report `line`, default 1; empty for a look-alike), `near` (the rule a look-alike imitates),
 * `attributes` (what git's attributes say of the path), `dropped` (a `dropped` count that must
 * go up), `why`. Credential values are written as templates, `{{<class>:<length>}}` and a few
 * named ones, expanded with a seeded generator: no file here holds a literal token.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toChunks } from '../../lib/diff/chunk.js';
import type { PathAttributes } from '../../lib/diff/attributes.js';
import type { ReviewRule } from '../../lib/review/engine/rules.js';
import type { DroppedCounts } from '../../lib/review/types.js';
import { addedFile, reviewChunks } from './review.js';

export interface CorpusCase {
  family: string;
  /** `<file>#<index>`: where the case is written. */
  name: string;
  path: string;
  lines: string[];
  expect: string[];
  line: number;
  near: string | null;
  attributes?: Partial<PathAttributes>;
  dropped?: keyof DroppedCounts;
  why: string;
}

interface RawCase {
  path: string;
  lines: Array<string | { repeat: number; line: string }>;
  expect?: string | string[];
  line?: number;
  near?: string;
  attributes?: Partial<PathAttributes>;
  dropped?: keyof DroppedCounts;
  why: string;
}

const CLASSES: Record<string, string> = {
  A: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  a: 'abcdefghijklmnopqrstuvwxyz',
  '0': '0123456789',
  A0: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  Aa0: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  Aa: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  a0: 'abcdefghijklmnopqrstuvwxyz0123456789',
  h: '0123456789abcdef',
  H: '0123456789ABCDEF',
  b64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
  bech: 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L',
  pw: 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!#%&*+-=?@^_~',
};

/** mulberry32, seeded by the case's name: the same values on every run. */
function generator(seed: string): () => number {
  let a = 0;
  for (const c of seed) a = (Math.imul(a, 31) + c.charCodeAt(0)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const b64url = (text: string) => Buffer.from(text).toString('base64url');

function expand(text: string, random: () => number): string {
  const pick = (set: string, n: number) =>
    Array.from({ length: n }, () => set[Math.floor(random() * set.length)]!).join('');
  return text.replace(/\{\{([A-Za-z0-9]+)(?::([^}]+))?\}\}/g, (whole, kind: string, arg?: string) => {
    if (kind in CLASSES) return pick(CLASSES[kind]!, Number(arg));
    if (kind === 'uuid') return [8, 4, 4, 4, 12].map((n) => pick(CLASSES.h!, n)).join('-');
    if (kind === 'basic') return Buffer.from(`deploy:${pick(CLASSES.pw!, 16)}`).toString('base64');
    // A private key block encoded once more in base64, as a kubeconfig's client-key-data holds it.
    if (kind === 'pemb64') {
      const label = arg ?? 'RSA PRIVATE KEY';
      const body = [pick(CLASSES.b64!, 64), pick(CLASSES.b64!, 64), `${pick(CLASSES.b64!, 40)}==`];
      return Buffer.from(`-----BEGIN ${label}-----\n${body.join('\n')}\n-----END ${label}-----\n`).toString('base64');
    }
    // A JWT encoded once more in base64, as a Kubernetes Secret's data holds it.
    if (kind === 'jwtb64') return Buffer.from(expand(`{{jwt:${arg ?? 'HS256'}}}`, random)).toString('base64');
    if (kind === 'jwt') {
      const alg = arg ?? 'HS256';
      const header = b64url(JSON.stringify({ alg, typ: 'JWT' }));
      const payload = b64url(
        JSON.stringify({ sub: pick(CLASSES.h!, 12), iat: 1700000000 + Math.floor(random() * 1e7), scope: 'repo:read' }),
      );
      const signature = alg === 'none' ? '' : pick(CLASSES.url!, alg.startsWith('RS') ? 342 : 43);
      return `${header}.${payload}.${signature}`;
    }
    throw new Error(`unknown template ${whole}`);
  });
}

/** `raw`: the lines as written, templates not expanded (to check that no file holds a literal token). */
export function loadCorpus(dir: string, options: { raw?: boolean } = {}): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const raw = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { family: string; cases: RawCase[] };
    raw.cases.forEach((c, index) => {
      const name = `${file}#${index}`;
      const random = generator(name);
      const fill = (text: string) => (options.raw ? text : expand(text, random));
      const lines = c.lines.flatMap((l) =>
        typeof l === 'string' ? [fill(l)] : Array.from({ length: l.repeat }, () => fill(l.line)),
      );
      const expect = c.expect === undefined ? [] : Array.isArray(c.expect) ? c.expect : [c.expect];
      cases.push({
        family: raw.family,
        name,
        path: c.path,
        lines,
        expect,
        line: c.line ?? 1,
        near: c.near ?? null,
        attributes: c.attributes,
        dropped: c.dropped,
        why: c.why,
      });
    });
  }
  return cases;
}

export interface CaseOutcome {
  case: CorpusCase;
  /** `<line> <rule id>` of every finding. */
  found: string[];
  dropped: DroppedCounts;
  /** The case holds: every expected finding, nothing else, the dropped count when asked. */
  ok: boolean;
}

export async function runCase(c: CorpusCase, rules: readonly ReviewRule[]): Promise<CaseOutcome> {
  const chunks = toChunks([addedFile(c.path, c.lines)], 400);
  const result = await reviewChunks(chunks, rules, c.attributes ? { [c.path]: c.attributes } : {});
  const found = result.findings.map((f) => `${f.line} ${f.rule_source.slice(f.rule_source.indexOf(':') + 1)}`);
  const wanted = c.expect.map((id) => `${c.line} ${id}`);
  const ok =
    found.length === wanted.length &&
    wanted.every((w) => found.includes(w)) &&
    (c.dropped === undefined || result.dropped[c.dropped] > 0);
  return { case: c, found, dropped: result.dropped, ok };
}

export interface FamilyScore {
  family: string;
  positives: number;
  negatives: number;
  truePositives: number;
  falsePositives: number;
  recall: number;
  precision: number;
}

/**
 * Per family: recall = positive cases whose expected findings all came / positive cases;
 * precision = correct findings / all findings (a finding on a look-alike, or one a positive
 * case did not expect, is a false one).
 */
export function score(outcomes: readonly CaseOutcome[]): FamilyScore[] {
  const families = [...new Set(outcomes.map((o) => o.case.family))];
  return families.map((family) => {
    const mine = outcomes.filter((o) => o.case.family === family);
    const positives = mine.filter((o) => o.case.expect.length > 0);
    let truePositives = 0;
    let falsePositives = 0;
    let hits = 0;
    for (const o of mine) {
      const wanted = new Set(o.case.expect.map((id) => `${o.case.line} ${id}`));
      for (const f of o.found) wanted.has(f) ? truePositives++ : falsePositives++;
      if (o.case.expect.length > 0 && [...wanted].every((w) => o.found.includes(w))) hits++;
    }
    return {
      family,
      positives: positives.length,
      negatives: mine.length - positives.length,
      truePositives,
      falsePositives,
      recall: positives.length ? hits / positives.length : 1,
      precision: truePositives + falsePositives ? truePositives / (truePositives + falsePositives) : 1,
    };
  });
}
