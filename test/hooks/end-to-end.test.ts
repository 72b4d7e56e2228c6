/**
 * The "done when": in a fresh repository, init and install; a commit that breaks the
 * example ADR gets an OPEN trailer; the push is blocked naming the finding's ID; a REJECT
 * verdict plus a commit lets the push through, and the REJECT row is in the history.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { makeRepo } from '../kit/repo.js';
import { allTrailerRows, withRun, writeShim } from '../kit/hooks.js';

const r = withRun(makeRepo());
const bare = makeRepo({ bare: true });
after(() => {
  r.cleanup();
  bare.cleanup();
});

test('init, install, OPEN trailer, blocked push, REJECT verdict, commit, push through', async () => {
  writeShim(r.dir);
  r.write('.gitignore', 'node_modules/\n');
  assert.equal((await r.cli(['init'])).code, 0);
  const install = await r.cli(['install']);
  assert.equal(install.code, 0, install.stderr);
  r.commit('chore: revtrail');
  r.git(['remote', 'add', 'origin', bare.dir]);
  assert.equal((await r.run(['push', '-q', 'origin', 'main'])).code, 0);

  r.write(
    'src/controllers/users.ts',
    'export async function list(db) {\n  return db.query("select * from users");\n}\n',
  );
  r.git(['add', '-A']);
  const commit = await r.run(['commit', '-m', 'feat: users endpoint']);
  assert.equal(commit.code, 0, commit.stderr);
  const [open] = r.trailers();
  assert.match(
    open!,
    /^rf-[0-9a-f]{10},src\/controllers\/users\.ts,2,adr-0001:no-db-query,architecture,bug,Controller queries the database directly,OPEN,$/,
  );
  const id = open!.split(',')[0]!;

  const blocked = await r.run(['push', 'origin', 'main']);
  assert.equal(blocked.code, 1);
  assert.ok(blocked.stderr.includes(`revtrail verdict ${id} REJECT|DEFER|ACKNOWLEDGE`), blocked.stderr);

  const verdict = await r.cli([
    'verdict',
    id,
    'REJECT',
    'reporting query, see `git grep -n "db.query" src/` and https://wiki.example/adr-0001-exceptions',
  ]);
  assert.equal(verdict.code, 0, verdict.stderr);
  assert.equal((await r.run(['commit', '--allow-empty', '-m', 'chore: record review verdict'])).code, 0);
  const through = await r.run(['push', 'origin', 'main']);
  assert.equal(through.code, 0, through.stderr);
  assert.equal(bare.git(['rev-parse', 'main']).trim(), r.git(['rev-parse', 'HEAD']).trim());
  const rows = allTrailerRows(r);
  assert.ok(rows.includes(open!));
  assert.ok(
    rows.some(
      (row) =>
        row.startsWith(`${id},src/controllers/users.ts,2,adr-0001:no-db-query,architecture,bug,`) &&
        row.includes(',REJECT,'),
    ),
    rows.join('\n'),
  );
});
