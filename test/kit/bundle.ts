/**
 * Shared by the bundle tests: a bundle folder made from a map of files (a tempDir, so it goes
 * when the test file ends: test/kit/repo.ts), a concept's text, and what a load said.
 */
import { join } from 'node:path';
import { formatDiagnostic } from '../../lib/bundle/load.js';
import type { Bundle } from '../../lib/bundle/types.js';
import { tempDir, writeFiles } from './repo.js';

/** A temp folder holding `files` under `kb/`; returns the folder. */
export function bundleDir(files: Record<string, string>): string {
  const dir = tempDir();
  writeFiles(join(dir, 'kb'), files);
  return dir;
}

export const concept = (front: string, body = '# Heading\n\nBody text.\n') => `---\n${front}\n---\n${body}`;
export const lines = (b: Bundle) => b.diagnostics.map(formatDiagnostic);
export const ids = (b: Bundle) => b.concepts.map((c) => c.id);

/** Everything a caller sees of a bundle, each rule's regex as source and flags (loads compared). */
export function bundleView(b: Bundle): unknown {
  return {
    root: b.root,
    diagnostics: b.diagnostics.map(formatDiagnostic),
    concepts: b.concepts.map((c) => ({
      ...c,
      rules: c.rules.map((r) => ({ ...r, regex: `/${r.regex.source}/${r.regex.flags}` })),
    })),
  };
}
