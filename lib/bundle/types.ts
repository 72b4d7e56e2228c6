/** A knowledge bundle in Open Knowledge Format as revtrail reads it (docs/bundle.md). */
import type { Category, Severity } from '../core/vocabulary.js';
import type { StructuralRule } from './structural.js';

export interface Diagnostic {
  level: 'error' | 'warning';
  /** File path as the user sees it (relative to the cwd or bundle), or null. */
  file: string | null;
  line: number | null;
  message: string;
}

export interface RuleDefinition {
  id: string;
  pattern: string;
  flags: string;
  severity: Severity;
  category: Category;
  title: string;
  message: string | null;
  confidence: number;
  paths: string[];
  exclude: string[];
  /**
   * What of a file the pattern reads (docs/bundle.md "Rule keys"): `code` (the default: comments
   * and string literals masked where revtrail parses the file), `comments`, `strings` or `any`.
   */
  in: 'code' | 'comments' | 'strings' | 'any';
  /** Linter rules that enforce the same decision (`eslint:no-console`): their disable comments allow a finding. */
  equivalent: string[];
}

/** A compiled rule, ready to run: regex built once per run. */
export interface Rule extends RuleDefinition {
  /** `<doc-id>:<rule-id>` for bundle rules, `builtin/<section>:<id>` for the baseline. */
  ruleSource: string;
  /** The document that owns the rule (cited by its findings); null for built-ins. */
  documentId: string | null;
  regex: RegExp;
  /** Line of the pattern in its concept file (bundle rules), for `knowledge check`. */
  line?: number;
}

export interface Concept {
  id: string;
  /** Path inside the bundle, POSIX, e.g. `decisions/adr-001.md`. */
  file: string;
  type: string;
  title: string;
  description: string | null;
  /** Markdown body after the frontmatter. */
  body: string;
  paths: string[];
  domain: string[];
  tags: string[];
  rules: Rule[];
  /** Its `ast` and `imports` rules (docs/structural.md); absent when it has none. */
  structural?: StructuralRule[];
  /**
   * A document of the doc map (docs/bundle.md "Doc map"): `file` is relative to the work tree's
   * top, not the bundle, and `paths` are its mappings' globs.
   */
  mapped?: true;
}

export interface Bundle {
  /** Absolute path of the bundle folder. */
  root: string;
  concepts: Concept[];
  diagnostics: Diagnostic[];
  /**
   * Keys of rules whose pattern overran its time limit in an earlier review (kept in the bundle
   * cache); the review adds to it and calls rememberOverrun for each new one.
   */
  overran?: Set<string>;
  /** The doc map read with the bundle, when one is configured. */
  docMap?: DocMapInfo;
  /**
   * Every file the load read or looked at, with its stat() signature then (bundle/cache.ts
   * statSignature): while each still has it, loading again gives this bundle. Absent when some
   * file was not known by a signature (changed within the last seconds, reached through a
   * symlink, unreadable).
   */
  sources?: ReadonlyArray<readonly [file: string, signature: string]>;
  /** Stores an overrun for later runs (absent without a bundle cache). */
  rememberOverrun?(key: string): void;
}

export interface DocMapInfo {
  /** Absolute path of the doc map file. */
  file: string;
  /** Absolute path of the work tree's top: what mapped documents' `file` is relative to. */
  top: string;
  /** The doc map itself cannot be used (missing, unreadable, not valid YAML): no document is mapped. */
  unusable: boolean;
}
