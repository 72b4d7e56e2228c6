/** The built-in baseline: each rule fires on what it is for, and stays quiet on look-alikes. */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import {
  builtinRules,
  CREDENTIAL_RULE_SOURCES,
  credentialOverrides,
  unknownBuiltinIds,
  allBuiltinRules,
} from '../../lib/review/builtin.js';
import { SEVERITIES, CATEGORIES } from '../../lib/core/vocabulary.js';
import { chunkOf, reviewChunks } from '../kit/review.js';
import { toChunks } from '../../lib/diff/chunk.js';
import type { DiffFile } from '../../lib/diff/types.js';

const rules = builtinRules(true);

/** rule_sources flagged on `lines` of `path` (each line numbered from 1), as a review reports them. */
async function flagged(path: string, lines: string[]): Promise<string[]> {
  const { findings } = await reviewChunks([chunkOf(path, lines)], rules);
  return findings.map((d) => `${d.line} ${d.rule_source}`);
}

async function fires(ruleSource: string, path: string, lines: string[], line = 1): Promise<void> {
  const got = await flagged(path, lines);
  assert.ok(
    got.includes(`${line} ${ruleSource}`),
    `${ruleSource} should flag ${path}:${line} in ${JSON.stringify(lines)}; got ${JSON.stringify(got)}`,
  );
}

async function quiet(path: string, lines: string[]): Promise<void> {
  assert.deepEqual(await flagged(path, lines), [], `nothing should be flagged in ${path}: ${JSON.stringify(lines)}`);
}

// Real-looking (random) credentials assembled at run time, so this file holds no literal token.
const AWS = 'AKIA' + 'Z7QW4RTY2UI8OP3L';
const GHP = 'ghp_' + 'R8s2KdLq0XwZ4mNvB7cT1yUe9HjPa3Gf6iOk';
const NPM = 'npm_' + 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5';
const SLACK = 'xoxb-' + '2314567890-9876543210123-Kq8LmN3pR5tV7xZ9aB1cD3eF';
const STRIPE = 'sk_live_' + '51Hx8KqL2mN4pR6tV8xZ0aB2';
const GOOGLE = 'AIza' + 'SyB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3h';
const PEM_BODY = 'MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2dzR5j0oQvYtUvWFYVdq8PiRo2uv';
// Joined at run time: written out under its header, the file itself would hold a key's shape.
const OPENSSH_BODY = ['b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB', 'AAABlwAAAAdzc2gtcn'].join('');

describe('metadata', () => {
  test('every rule has a severity and category from the vocabulary, a short title and a confidence', () => {
    const all = allBuiltinRules();
    for (const r of all) {
      assert.match(r.ruleSource, /^builtin\/[a-z]+:[a-z-]+$/);
      assert.ok(SEVERITIES.includes(r.severity) && CATEGORIES.includes(r.category), r.ruleSource);
      assert.ok(r.title.length > 0 && r.title.length <= 80, r.ruleSource);
      assert.ok(r.confidence >= 0.8 && r.confidence <= 1, r.ruleSource);
      assert.equal(r.documentId, null);
    }
    const severity = Object.fromEntries(all.map((r) => [r.id, r.severity]));
    assert.equal(severity['private-key'], 'security');
    assert.equal(severity['conflict-marker'], 'bug');
    assert.equal(severity['focused-test'], 'test');
    assert.equal(severity.debugger, 'bug');
    assert.equal(severity['shell-exec'], 'security');
    assert.equal(severity['sql-concat'], 'security');
  });

  test('builtinRules: false disables all but the credential rules, a list disables by id, rule_source or section', () => {
    // The credential rules stay whatever the config says (docs/trust.md "Credential rules").
    assert.deepEqual(new Set(builtinRules(false).map((r) => r.ruleSource)), CREDENTIAL_RULE_SOURCES);
    const ids = (list: string[]) => builtinRules(list).map((r) => r.id);
    assert.ok(!ids(['debugger']).includes('debugger'));
    assert.ok(!ids(['builtin/tests:focused-test']).includes('focused-test'));
    assert.ok(ids(['builtin/tests:focused-test']).includes('skipped-test'));
    const noSecrets = ids(['secrets', 'aws-access-key', 'builtin/secrets:npm-token']);
    assert.ok(['private-key', 'aws-access-key', 'npm-token'].every((id) => noSecrets.includes(id)));
    assert.ok(
      !noSecrets.includes('generic-secret'),
      'a heuristic of the secrets section is not a credential rule: it can be disabled',
    );
    assert.ok(noSecrets.includes('debugger'));
    assert.deepEqual(unknownBuiltinIds(['debugger', 'debuger', 'secrets']), ['debuger']);
  });

  test('credentialOverrides: what a config tries to take from the credential rules; the defaults try nothing', () => {
    assert.deepEqual(credentialOverrides({ builtinRules: true, minConfidence: 0.8, exclude: {} }), []);
    assert.deepEqual(
      credentialOverrides({
        builtinRules: ['debugger', 'generic-secret'],
        minConfidence: 0,
        exclude: { 'builtin/debug:debugger': ['**'] },
      }),
      [],
    );
    assert.deepEqual(
      credentialOverrides({
        builtinRules: false,
        minConfidence: 1,
        exclude: { 'aws-access-key': ['x/**'], debugger: ['**'] },
      }),
      [
        { key: 'builtinRules', what: 'false' },
        { key: 'minConfidence', what: '1' },
        { key: 'exclude', what: '"aws-access-key"' },
      ],
    );
    assert.deepEqual(credentialOverrides({ builtinRules: ['builtin/secrets', 'debugger'], minConfidence: 0.8 }), [
      { key: 'builtinRules', what: '"builtin/secrets"' },
    ]);
  });

  test('CREDENTIAL_RULE_SOURCES are the secret rules', () => {
    assert.ok(CREDENTIAL_RULE_SOURCES.has('builtin/secrets:private-key'));
    assert.ok(CREDENTIAL_RULE_SOURCES.has('builtin/secrets:aws-access-key'));
    assert.ok(!CREDENTIAL_RULE_SOURCES.has('builtin/debug:debugger'));
    for (const source of CREDENTIAL_RULE_SOURCES)
      assert.ok(
        allBuiltinRules().some((r) => r.ruleSource === source),
        source,
      );
  });
});

describe('merge conflict markers', () => {
  const S = 'builtin/git:conflict-marker';
  test('one finding per conflict, at its start marker', async () => {
    const got = await flagged('src/a.ts', [
      '<<<<<<< HEAD',
      'const a = 1;',
      '=======',
      'const a = 2;',
      '>>>>>>> feature',
    ]);
    assert.deepEqual(got, [`1 ${S}`]);
  });
  test('a lone end marker (start already resolved away) is flagged', () =>
    fires(S, 'README.md', ['text', '>>>>>>> main'], 2));
  test('quiet on headings, quotes and indented text', () =>
    quiet('docs/guide.md', [
      'Title',
      '=======',
      '> quoted',
      '    <<<<<<< in an indented example',
      'a <<<<<<< b',
      '<<<<<<<<<< ten',
    ]));
});

describe('credentials', () => {
  test('private key file (PEM)', () =>
    fires('builtin/secrets:private-key', 'deploy/id_rsa', [
      '-----BEGIN RSA PRIVATE KEY-----',
      PEM_BODY,
      PEM_BODY,
      '-----END RSA PRIVATE KEY-----',
    ]));
  test('private key inside a JSON string', () =>
    fires('builtin/secrets:private-key', 'sa.json', [
      `  "private_key": "-----BEGIN PRIVATE KEY-----\\n${PEM_BODY}\\n-----END PRIVATE KEY-----\\n",`,
    ]));
  test('OPENSSH private key', () =>
    fires('builtin/secrets:private-key', 'k', ['-----BEGIN OPENSSH PRIVATE KEY-----', OPENSSH_BODY]));
  test('quiet on code that only names the header, and on placeholder keys', async () => {
    await quiet('src/pem.ts', [
      "if (pem.startsWith('-----BEGIN RSA PRIVATE KEY-----')) return 'rsa';",
      "const HEADER = '-----BEGIN PRIVATE KEY-----';",
    ]);
    await quiet('docs/keys.md', ['-----BEGIN RSA PRIVATE KEY-----', '...', '-----END RSA PRIVATE KEY-----']);
    await quiet('docs/keys.md', [
      '-----BEGIN RSA PRIVATE KEY-----',
      'MIIEXAMPLEKEYxxxxxxxxxxxxxxxxxxxxxxxx',
      '-----END RSA PRIVATE KEY-----',
    ]);
    await quiet('test/fixture.ts', [
      'const key = "-----BEGIN PRIVATE KEY-----\\n<your key here>\\n-----END PRIVATE KEY-----";',
    ]);
  });

  test('private key after code on its line, or flattened onto one line: every way a string holds one (issue 58)', async () => {
    const pem = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs1', format: 'pem' })
      .toString()
      .trimEnd()
      .split('\n');
    const [head, body, foot] = [pem[0]!, pem.slice(1, -1), pem.at(-1)!];
    const ossh = [
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      OPENSSH_BODY,
      OPENSSH_BODY,
      '-----END OPENSSH PRIVATE KEY-----',
    ];
    const cases: Array<[string, string[]]> = [
      ['src/key.js', [`const key = \`${head}`, ...body, `${foot}\`;`]],
      ['key.go', [`var key = \`${head}`, ...body, `${foot}\``]],
      ['key.py', [`KEY = """${head}`, ...body, `${foot}"""`]],
      ['src/ssh.ts', [`export const k = \`${ossh[0]}`, ...ossh.slice(1, -1), `${ossh.at(-1)}\`;`]],
      ['.env', [`PRIVATE_KEY="${pem.join('\\n')}\\n"`]],
      ['flat.txt', [pem.join('')]],
      ['spaced.txt', [pem.join(' ')]],
      ['mac.pem', [pem.join('\r')]],
      [
        'nb.ipynb',
        [JSON.stringify({ cells: [{ source: [`k = """${head}\n`, ...body.map((b) => `${b}\n`), `${foot}"""`] }] })],
      ],
    ];
    for (const [path, lines] of cases) await fires('builtin/secrets:private-key', path, lines);
    // Look-alikes: code that names the header, then code or prose; a header with words after it.
    await quiet('src/pem.ts', [
      'const h = `-----BEGIN RSA PRIVATE KEY-----',
      '${body}',
      '-----END RSA PRIVATE KEY-----`;',
    ]);
    await quiet('src/pem.ts', [
      "const HEADER = '-----BEGIN PRIVATE KEY-----';",
      'const someRatherLongIdentifierName = 1;',
    ]);
    await quiet('docs/pem.md', ['-----BEGIN RSA PRIVATE KEY----- <paste the key here> -----END RSA PRIVATE KEY-----']);
    await quiet('docs/pem.md', [
      'The header -----BEGIN RSA PRIVATE KEY----- comes before theBase64EncodedBodyOfTheKeyItself.',
    ]);
    await quiet('src/re.ts', [
      'const re = /-----BEGIN [A-Z ]+PRIVATE KEY-----(?:\\s|\\n)+([A-Za-z0-9+/=\\s]+)-----END/;',
    ]);
    await quiet('gen.py', [
      'pem = "-----BEGIN RSA PRIVATE KEY-----" + "\\n" + body + "\\n-----END RSA PRIVATE KEY-----"',
    ]);
  });

  test('AWS access key', () => fires('builtin/secrets:aws-access-key', 'src/config.ts', [`const id = '${AWS}';`]));
  test('AWS session key (ASIA)', () =>
    fires('builtin/secrets:aws-access-key', '.env', [`AWS_ACCESS_KEY_ID=ASIA${AWS.slice(4)}`]));
  test('AWS secret access key assignment', () =>
    fires('builtin/secrets:aws-secret-key', 'config/prod.yml', [
      `aws_secret_access_key: "${'Qm9k8Jx2LpV7nRz4Tw1Y'}${'cH6sFa3GdE5uKiO0bN9A'}"`,
    ]));
  test('quiet on the documented AWS examples and placeholders', () =>
    quiet('README.md', [
      'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'export AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX',
      'the pattern is /AKIA[0-9A-Z]{16}/',
    ]));

  test('GitHub tokens', async () => {
    await fires('builtin/secrets:github-token', 'ci.sh', [`export GITHUB_TOKEN=${GHP}`]);
    await fires('builtin/secrets:github-token', 'ci.sh', [`token: gho_${GHP.slice(4)}`]);
    await fires('builtin/secrets:github-token', 'ci.sh', [
      `token = "github_pat_11AB7KQ2Z0hT4mVx9pLr3c_${'Zq8'.repeat(19)}aB"`,
    ]);
  });
  test('quiet on placeholder GitHub tokens', () =>
    quiet('docs/setup.md', ['GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'use a ghp_ token']));

  test('Slack, Stripe, Google, npm tokens', async () => {
    await fires('builtin/secrets:slack-token', 'src/notify.ts', [`const token = '${SLACK}';`]);
    await fires('builtin/secrets:stripe-key', 'src/pay.ts', [`stripe(${JSON.stringify(STRIPE)})`]);
    await fires('builtin/secrets:google-api-key', 'src/maps.ts', [`const key = "${GOOGLE}";`]);
    await fires('builtin/secrets:npm-token', '.npmrc', [`//registry.npmjs.org/:_authToken=${NPM}`]);
  });
  test('quiet on test keys and look-alikes', () =>
    quiet('src/pay.ts', [
      "stripe('sk_test_4eC39HqLyjWDarjtT1zdp7dc')", // Stripe's documented test key
      "const slack = 'xoxb-not-a-real-token-this-will-not-work';",
      'process.env.npm_config_registry',
      "const npm = 'npm_lifecycle_event';",
      'AIzaSyEXAMPLE-EXAMPLE-EXAMPLE-EXAMPLE12',
    ]));
  test('a real key after a placeholder on the same line is still found', () =>
    fires('builtin/secrets:aws-access-key', 'a.env', [`ID=AKIAIOSFODNN7EXAMPLE OTHER=${AWS}`]));
  test('a key inside a comment is still a leak', () =>
    fires('builtin/secrets:aws-access-key', 'src/a.ts', [`// old key ${AWS}`]));
});

describe('focused and skipped tests', () => {
  const F = 'builtin/tests:focused-test';
  const K = 'builtin/tests:skipped-test';
  test('fires on .only, fit, fdescribe', async () => {
    await fires(F, 'test/a.test.ts', ["it.only('adds', () => {});"]);
    await fires(F, 'test/a.test.ts', ["describe.only('math', () => {"]);
    await fires(F, 'test/a.spec.js', ["  test.only('works', async () => {"]);
    await fires(F, 'test/a.spec.js', ["test.describe.only('suite', () => {"]);
    await fires(F, 'test/a.spec.js', ["fit('focus', () => {})"]);
    await fires(F, 'test/a.spec.js', ['fdescribe("focus", () => {']);
  });
  test('fires on .skip, xit, xdescribe', async () => {
    await fires(K, 'test/a.test.ts', ["it.skip('flaky', () => {});"]);
    await fires(K, 'test/a.test.ts', ["describe.skip('later', () => {"]);
    await fires(K, 'test/a.test.ts', ["xit('flaky', () => {});"]);
    await fires(K, 'test/a.test.ts', ['xdescribe(`suite`, () => {']);
  });
  test('quiet on strings, regex literals, comments, markdown, other languages and look-alike names', async () => {
    await Promise.all([
      quiet('lib/lint.ts', ["const message = 'do not commit it.only( or fit( calls';"]),
      quiet('lib/lint.ts', ['const focused = /\\b(it|describe)\\.only\\(/;']),
      quiet('lib/lint.ts', ['const re = new RegExp("describe\\\\.only\\\\(");']),
      quiet('lib/lint.ts', ['// never leave it.only( in a test']),
      quiet('lib/lint.ts', [' * Use `describe.skip(` sparingly.']),
      quiet('docs/testing.md', ["Use `it.only('name')` while you work, then remove it."]),
      quiet('tests/test_a.py', ["fit('x')"]),
      quiet('src/model.ts', [
        'model.fit(data);',
        'const fit = (a: number) => a;',
        'fit(x, y);',
        'items.only(1);',
        "test.skip(browserName === 'webkit', 'no support');",
      ]),
    ]);
  });
});

describe('debugger statements', () => {
  const D = 'builtin/debug:debugger';
  test('fires on a statement', async () => {
    await fires(D, 'src/a.ts', ['  debugger;']);
    await fires(D, 'src/a.js', ['if (x) debugger']);
    await fires(D, 'src/a.jsx', ['function f() { debugger }']);
  });
  test('quiet in words, strings, comments and other languages', async () => {
    await Promise.all([
      quiet('src/a.ts', [
        'const debuggerEnabled = true;',
        'this.debugger = null;',
        "log('debugger;');",
        '// debugger;',
        'isDebugger();',
      ]),
      quiet('src/a.py', ['debugger;']),
      quiet('README.md', ['debugger;']),
    ]);
  });
});

describe('shell execution from interpolated strings', () => {
  const S = 'builtin/injection:shell-exec';
  test('fires on template interpolation and concatenation', async () => {
    await fires(S, 'src/git.ts', ['execSync(`git log ${branch}`);']);
    await fires(S, 'src/git.ts', ["exec('rm -rf ' + dir, cb);"]);
    await fires(S, 'src/git.ts', ['child_process.exec(cmd + " --force");']);
    await fires(S, 'src/git.ts', ['cp.spawn(`${tool} --run`, { shell: true });']);
  });
  test('a renamed import the diff shows only as context is followed to a call in another piece (its needles are not in that piece)', async () => {
    const context = (newLine: number, text: string) => ({ kind: 'context' as const, text, oldLine: newLine, newLine });
    const added = (newLine: number, text: string) => ({ kind: 'add' as const, text, oldLine: null, newLine });
    const file: DiffFile = {
      oldPath: 'src/deploy.ts',
      newPath: 'src/deploy.ts',
      status: 'modified',
      binary: false,
      oldMode: '100644',
      newMode: '100644',
      hunks: [
        {
          oldStart: 1,
          oldLines: 2,
          newStart: 1,
          newLines: 3,
          section: '',
          lines: [
            context(1, "import { exec as run } from 'node:child_process';"),
            context(2, ''),
            added(3, 'const ok = true;'),
          ],
        },
        {
          oldStart: 40,
          oldLines: 1,
          newStart: 41,
          newLines: 2,
          section: '',
          lines: [context(41, 'export function deploy(ref: string) {'), added(42, '  run(`git checkout ${ref}`);')],
        },
      ],
    };
    // One changed line per piece: the call's piece holds no `exec`, `spawn` or `child_process`.
    const chunks = toChunks([file], 1);
    assert.equal(chunks.length, 2);
    const { findings } = await reviewChunks(chunks, rules);
    assert.deepEqual(
      findings.map((f) => `${f.line} ${f.rule_source}`),
      [`42 ${S}`],
    );
  });
  test('quiet on argument arrays, constant commands, RegExp#exec and comments', () =>
    quiet('src/git.ts', [
      "execFile('git', ['log', branch]);",
      "spawn('git', ['log', branch]);",
      "execSync('git status');",
      'const m = /a(b)/.exec(text + suffix);',
      'const m2 = pattern.exec(`${a}`);',
      '// exec(`rm ${x}`) would be wrong',
    ]));
});

describe('SQL built by concatenation or interpolation', () => {
  const Q = 'builtin/injection:sql-concat';
  test('fires on interpolation and concatenation', async () => {
    await fires(Q, 'src/db.ts', ['db.query(`SELECT * FROM users WHERE id = ${id}`);']);
    await fires(Q, 'src/db.ts', ['db.query("SELECT name FROM users WHERE id = " + id);']);
    await fires(Q, 'src/db.js', ["const q = 'DELETE FROM sessions WHERE user = ' + user;"]);
    await fires(Q, 'src/Repo.java', ['String q = "UPDATE accounts SET balance = " + amount + " WHERE id = " + id;']);
    await fires(Q, 'app/db.py', ['cur.execute(f"SELECT * FROM users WHERE name = \'{name}\'")']);
    await fires(Q, 'app/db.py', ['cur.execute("INSERT INTO logs VALUES (%s)" % value)']);
    await fires(Q, 'src/db.ts', [
      'const q = table + " WHERE id = 1"; const r = "select id from users where id=" + id;',
    ]);
    await fires(Q, 'db/store.go', ['rows, err := db.Query(fmt.Sprintf("SELECT * FROM users WHERE id = %s", id))']);
  });
  test('fires on statements spread over lines', async () => {
    await fires(Q, 'src/db.ts', ['const q = `', '  SELECT * FROM users', '  WHERE id = ${id}', '`;'], 2);
    await fires(Q, 'src/db.ts', ['const q = `SELECT * FROM users', '  WHERE id = ${id}`;'], 1);
    await fires(Q, 'src/db.ts', ['const q = "SELECT * FROM users " +', '  "WHERE id = " + id;'], 1);
  });
  test('quiet on multi-line parameterized statements', () =>
    Promise.all([
      quiet('src/db.ts', ['const rows = await sql`', '  SELECT * FROM users', '  WHERE id = ${id}', '`;']),
      quiet('src/db.ts', ['const q = `', '  SELECT * FROM users', '  WHERE id = $1', '`;', 'const other = `${x}`;']),
      quiet('src/db.ts', ['const q = `SELECT * FROM users', '  WHERE id = ?`;', 'log(`${q}`);']),
      quiet('src/db.ts', ['const q = "SELECT * FROM users " +', '  "WHERE id = ?";']),
    ]).then(() => undefined));
  test('quiet on parameterized SQL, tagged templates, constants, UI text and comments', async () => {
    await Promise.all([
      quiet('src/db.ts', [
        "db.query('SELECT * FROM users WHERE id = $1', [id]);",
        'db.query(sql`SELECT * FROM users WHERE id = ${id}`);',
        'await prisma.$queryRaw`SELECT * FROM users WHERE id = ${id}`;',
        "const q = 'SELECT a, b FROM t ' +",
        "  'WHERE id = ?';",
        'const label = "Select a file from the list: " + name;',
        "const msg = 'Delete from cart? ' + item;",
        '// SELECT * FROM users WHERE id = ${id}',
      ]),
      quiet('app/db.py', [
        'cur.execute("SELECT * FROM users WHERE id = %s", (uid,))',
        '# query = "SELECT * FROM t WHERE id = " + x',
      ]),
      quiet('docs/db.md', ['db.query(`SELECT * FROM users WHERE id = ${id}`)']),
      quiet('migrations/001.sql', ['SELECT * FROM users WHERE id = ${id};']),
    ]);
  });
});

describe('what a new file holds inside literals and comments', () => {
  test('fixture code in a multi-line template is text, not code', () =>
    quiet('lib/demo/files.ts', [
      'const controller = `import { db } from "../db.js";',
      'export async function get(id) {',
      '  return db.query("SELECT * FROM orders WHERE id = \'" + id + "\'");',
      '}',
      "test.skip('later', () => {});",
      "it.only('focus', () => {});",
      'debugger;',
      "exec('rm -rf ' + dir);",
      '`;',
    ]));
  test('code after the template closes is code again', () =>
    fires('builtin/debug:debugger', 'lib/x.ts', ['const t = `a', 'b`; debugger;'], 2));
  test('an interpolated template spanning lines is still seen as built SQL', () =>
    fires(
      'builtin/injection:sql-concat',
      'lib/x.ts',
      ['const intro = 1;', 'const q = `', '  DELETE FROM sessions', '  WHERE user = ${user}`;'],
      3,
    ));
  test('a block comment spanning lines is not code', () =>
    quiet('lib/x.ts', ['/*', 'debugger;', "it.only('x', f)", "exec('rm ' + x)", '*/']));
  test('shell calls that are only text inside strings stay quiet', () =>
    quiet('test/a.test.ts', ["const snippet = 'exec(`rm ${dir}`)';", 'const other = "execSync(cmd + x)";']));
});
