/**
 * The document a finding cites, as the editor shows it (docs/editor.md "Hover and definition"):
 * its file, the line of the rule in it, its title and its governing paragraph.
 */
import { resolve } from 'node:path';
import type { Bundle, Concept } from '../bundle/types.js';
import type { Finding } from '../review/types.js';

export interface CitedDocument {
  id: string;
  title: string;
  /** Absolute path of the concept file. */
  file: string;
  /** 0-based line of the finding's rule in the file (0 when the rule's line is not known). */
  line: number;
  /** The paragraph that governs: the first of its Decision section, else of its body, else its description. */
  paragraph: string;
}

/** Past this many characters a paragraph is cut at a word: a hover is a glance, the file is one action away. */
const PARAGRAPH_MAX = 700;

/**
 * The first paragraph under a heading named Decision (an ADR's ruling), else the body's first
 * paragraph that is not a heading, else ''. Lines of one paragraph are joined with spaces.
 */
export function governingParagraph(body: string): string {
  const lines = body.split(/\r?\n/);
  const paragraphAfter = (from: number): string => {
    const taken: string[] = [];
    for (let i = from; i < lines.length; i++) {
      const line = lines[i]!.trim();
      if (/^#{1,6}\s/.test(line)) {
        if (taken.length) break;
        continue;
      }
      if (line === '') {
        if (taken.length) break;
        continue;
      }
      taken.push(line);
    }
    return taken.join(' ');
  };
  const decision = lines.findIndex((l) => /^#{1,6}\s+decision\b/i.test(l.trim()));
  const text = (decision !== -1 && paragraphAfter(decision + 1)) || paragraphAfter(0);
  if (text.length <= PARAGRAPH_MAX) return text;
  const cut = text.slice(0, PARAGRAPH_MAX);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), PARAGRAPH_MAX / 2))} …`;
}

/** Where a concept's file is: the bundle's, or the work tree's for a doc-map document. */
export function conceptFile(bundle: Bundle, concept: Concept, top: string): string {
  return resolve(concept.mapped ? top : bundle.root, concept.file);
}

/** The document `finding` cites (its first citation), or null: a built-in finding cites none. */
export function citedDocument(bundle: Bundle, top: string, finding: Finding): CitedDocument | null {
  const id = finding.citations[0];
  if (id === undefined) return null;
  const concept = bundle.concepts.find((c) => c.id === id);
  if (!concept) return null;
  const rule =
    concept.rules.find((r) => r.ruleSource === finding.rule_source) ??
    concept.structural?.find((r) => r.ruleSource === finding.rule_source);
  return {
    id,
    title: concept.title,
    file: conceptFile(bundle, concept, top),
    line: Math.max(0, (rule?.line ?? 1) - 1),
    paragraph: governingParagraph(concept.body) || concept.description || '',
  };
}
