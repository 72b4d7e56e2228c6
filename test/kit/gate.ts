/**
 * A history for the gate and candidate tests, built with real commits: each finding is raised
 * by the commit that adds the flagged line and accepted by the commit that fixes it.
 */
import { after } from 'node:test';
import { makeRepo, type TestRepo } from './repo.js';
import { clock, lines, message, row, type Row } from './mine.js';

export const RULE = 'decisions/adr-001:no-sql-concat';
/**
 * Who fixes: a second person beside the repository's own author (test/kit/repo.ts), as in a
 * team; the gate's several_authors signal asks for that (docs/gate.md).
 */
export const FIXER = 'Bo Fixer <bo@example.com>';

export function authorEnv(author: string): NodeJS.ProcessEnv {
  const [, name, email] = /^(.*?) <(.*)>$/.exec(author)!;
  return { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email };
}

export interface Scenario {
  repo: TestRepo;
  time: ReturnType<typeof clock>;
  /** Adds `file` with a flagged line 2 and an OPEN finding; returns the commit. */
  raise(id: string, file: string, extra?: Partial<Row>): string;
  /** Changes `file` line 2 and records ACCEPT; returns the commit (by FIXER unless `author` says who). */
  fix(id: string, file: string, extra?: Partial<Row>, options?: { touch?: string; author?: string }): string;
  verdict(id: string, file: string, verdict: Row['verdict'], rationale: string, extra?: Partial<Row>): string;
  ci(commit: string, outcome: 'pass' | 'fail'): void;
}

export function scenario(): Scenario {
  const repo = makeRepo();
  const time = clock();
  const flagged = (n: number) =>
    lines(5, (i) => (i === 2 ? `const q = "SELECT " + input${n};` : `const v${i} = ${i};`));
  let n = 0;
  const s: Scenario = {
    repo,
    time,
    raise(id, file, extra = {}) {
      n += 1;
      return repo.commit(
        message(`add ${file}`, [row({ id, file, line: '2', rule_source: RULE, ...extra })]),
        { [file]: flagged(n) },
        { env: time.next() },
      );
    },
    fix(id, file, extra = {}, options = {}) {
      n += 1;
      const target = options.touch ?? file;
      return repo.commit(
        message(`fix ${file}`, [
          row({
            id,
            file,
            line: '2',
            rule_source: RULE,
            verdict: 'ACCEPT',
            rationale: 'Parameterized query instead of concatenation',
            ...extra,
          }),
        ]),
        { [target]: lines(5, (i) => (i === 2 ? `const q = sql(input${n});` : `const v${i} = ${i};`)) },
        { env: { ...time.next(), ...authorEnv(options.author ?? FIXER) } },
      );
    },
    verdict(id, file, verdict, rationale, extra = {}) {
      return repo.commit(
        message(`verdict on ${id}`, [row({ id, file, line: '2', rule_source: RULE, verdict, rationale, ...extra })]),
        {},
        { env: time.next() },
      );
    },
    ci(commit, outcome) {
      repo.git(['notes', '--ref=revtrail-ci', 'add', '-f', '-m', outcome, commit], { env: time.next() });
    },
  };
  return s;
}

/** Two accepted, merged, CI-passing fixes of one rule in two files: a candidate. */
export function passingScenario(): Scenario & { fixes: string[]; raises: string[] } {
  const s = scenario();
  const raises = [s.raise('rf-00000000a1', 'src/a.ts'), s.raise('rf-00000000b1', 'src/b.ts')];
  const fixes = [s.fix('rf-00000000a1', 'src/a.ts'), s.fix('rf-00000000b1', 'src/b.ts')];
  for (const f of fixes) s.ci(f, 'pass');
  return { ...s, fixes, raises };
}

/** Each scenario given to the returned function is removed when the test file ends (as throwawayRepos). */
export function trackScenarios(): <T extends Scenario>(s: T) => T {
  const made: Scenario[] = [];
  after(() => {
    for (const s of made) s.repo.cleanup();
  });
  return (s) => {
    made.push(s);
    return s;
  };
}
