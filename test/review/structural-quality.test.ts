import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fixturesDir } from '../kit/repo.js';
import { loadStructuralCorpus, overall, scoreStructural } from '../kit/structural-corpus.js';

test('structural rules on the labelled corpus: precision and recall at least 0.95, over 40 positives and 40 look-alikes in five languages', async () => {
  const corpus = loadStructuralCorpus(join(fixturesDir, 'structural'));
  assert.ok(corpus.cases.filter((c) => c.expect).length >= 40 && corpus.cases.filter((c) => !c.expect).length >= 40);
  const scores = await scoreStructural(corpus);
  const all = overall(scores, corpus, 'structural');
  const misses = scores.flatMap((s) => s.misses);
  assert.ok(
    all.recall >= 0.95 && all.precision >= 0.95,
    `recall ${all.recall}, precision ${all.precision}\n${misses.join('\n')}`,
  );
  // The regexes they replace fire in comments and strings: the corpus tells them apart.
  assert.ok(overall(scores, corpus, 'regex').precision < all.precision);
});
