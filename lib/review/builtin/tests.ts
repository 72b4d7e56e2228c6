/**
 * Focused and skipped tests left in: JavaScript runners (Jest, Vitest, Mocha, Jasmine,
 * Playwright, node:test, their `.only`/`.skip` chains and bench) and RSpec (`fit '…' do`).
 * The bare Jasmine/RSpec forms (`fit`, `fdescribe`, `xit`) are names a library may use for
 * something else (`fit(image)`), so they count only in test files.
 */
import type { LineContext } from '../engine/rules.js';
import type { BuiltinFamily } from './define.js';
import { JS_FILES } from '../engine/mask.js';

/** A test function and the modifiers runners chain before `.only` / `.skip` (test.describe.serial.only, it.concurrent.only…). */
const RECEIVER =
  '(?:it|describe|test|context|suite|specify|bench)(?:\\.(?:describe|concurrent|serial|parallel|sequential|each))*';

/** Paths of test files: where a bare `fit(` or `xit(` is a test, not a function of the program. */
const TEST_FILE =
  /(?:^|\/)(?:tests?|__tests__|specs?|e2e|cypress|integration)\/|[._-](?:test|spec|e2e|cy)\.[cm]?[jt]sx?$|_spec\.rb$/;

const bareFormInTest =
  (bare: (match: RegExpExecArray) => boolean) => (match: RegExpExecArray, _text: string, context: LineContext) =>
    bare(match) && !TEST_FILE.test(context.path);

const RSPEC_FILES = ['**/*_spec.rb', '**/spec/**/*.rb'];

export const family: BuiltinFamily = {
  section: 'tests',
  specs: () => [
    {
      id: 'focused-test',
      // The bare forms need a string title: a call such as `fit(x, y)` is not a test.
      regex: new RegExp(
        `(?<![\\w$.])(?:${RECEIVER}\\.only(?:\\.each)?\\s*[(\`]|f(?:it|describe|context|test)\\s*\\(\\s*['"\`])`,
      ),
      severity: 'test',
      category: 'testing',
      title: 'Focused test (.only / fit / fdescribe) left in',
      message:
        'A focused test makes the runner skip every other test in the file or suite. Remove the focus before committing.',
      confidence: 0.95,
      paths: JS_FILES,
      equivalent: [
        'jest:no-focused-tests',
        'vitest:no-focused-tests',
        'mocha:no-exclusive-tests',
        'playwright:no-focused-test',
      ],
      scope: 'code',
      skipComments: true,
      reject: bareFormInTest((match) => match[0].startsWith('f')),
    },
    {
      id: 'skipped-test',
      // Playwright's conditional `test.skip(condition, reason)` has no string title first: not flagged.
      regex: new RegExp(
        `(?<![\\w$.])(?:${RECEIVER}\\.skip\\s*\\(\\s*['"\`]|x(?:it|describe|context|test)\\s*\\(\\s*['"\`])`,
      ),
      severity: 'test',
      category: 'testing',
      title: 'Skipped test (.skip / xit / xdescribe) added',
      message:
        'A skipped test no longer guards anything. Fix it, delete it, or record why it is skipped (a tracker issue).',
      confidence: 0.85,
      paths: JS_FILES,
      equivalent: [
        'jest:no-disabled-tests',
        'vitest:no-disabled-tests',
        'mocha:no-skipped-tests',
        'playwright:no-skipped-test',
      ],
      scope: 'code',
      skipComments: true,
      reject: bareFormInTest((match) => match[0].startsWith('x')),
    },
    {
      id: 'focused-spec',
      // RSpec: `fit 'works' do`, `fdescribe Parser do`, `fcontext "when…", :slow do`, `focus: true`.
      regex:
        /^\s*(?:f(?:it|describe|context|example|specify|scenario|feature)\b\s*\(?\s*['"A-Z:][^#]*?\bdo\b|(?:it|describe|context|specify|example)\b[^#]*?,\s*(?:focus:\s*true|:focus)\b)/,
      severity: 'test',
      category: 'testing',
      title: 'Focused RSpec example (fit / fdescribe / focus: true) left in',
      message:
        'A focused example makes RSpec run only the focused ones (with filter_run_when_matching :focus). Remove the focus before committing.',
      confidence: 0.9,
      paths: RSPEC_FILES,
      equivalent: ['rubocop:RSpec/Focus'],
      skipComments: true,
    },
    {
      id: 'skipped-spec',
      regex: /^\s*x(?:it|describe|context|example|specify|scenario|feature)\b\s*\(?\s*['"A-Z:][^#]*?\bdo\b/,
      severity: 'test',
      category: 'testing',
      title: 'Skipped RSpec example (xit / xdescribe) added',
      message:
        'A skipped example no longer guards anything. Fix it, delete it, or record why it is skipped (a tracker issue).',
      confidence: 0.85,
      paths: RSPEC_FILES,
      skipComments: true,
    },
  ],
};
