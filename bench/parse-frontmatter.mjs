// Child process of the `parsers` scenario: parses every frontmatter in a JSON file (a list of
// YAML sources) with one parser, as a fresh process would (module load and cold JIT included).
// usage: node bench/parse-frontmatter.mjs yaml|js-yaml|revtrail FILE
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './lib.mjs';

const [parser, file] = process.argv.slice(2);
const sources = JSON.parse(readFileSync(file, 'utf8'));
const require = createRequire(join(root, 'package.json'));
let ok = 0;
if (parser === 'yaml') {
  const YAML = require('yaml');
  for (const s of sources) {
    try {
      const doc = YAML.parseDocument(s, { lineCounter: new YAML.LineCounter(), uniqueKeys: true, prettyErrors: false });
      if (!doc.errors.length) doc.toJS({ maxAliasCount: 100 });
      ok++;
    } catch {
      // refused: counts as done
    }
  }
} else if (parser === 'js-yaml') {
  const { parseWithLibrary } = await import(join(root, 'dist/lib/bundle/frontmatter.js'));
  for (const s of sources) if (await parseWithLibrary(s)) ok++;
} else {
  const { readFrontmatter } = await import(join(root, 'dist/lib/bundle/frontmatter.js'));
  for (const s of sources) if (await readFrontmatter(`---\n${s}\n---\n`)) ok++;
}
process.stdout.write(`${ok}\n`);
