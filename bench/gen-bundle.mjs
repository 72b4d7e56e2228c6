// Generates an OKF bundle of N concepts (each with `paths`, `domain` and two rules) under DIR.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from './lib.mjs';

// structuralEvery: every Nth concept also carries an `ast` rule (docs/structural.md); 0: none.
export function generateBundle(dir, { concepts = 1000, rulesPer = 2, seed = 7, structuralEvery = 0 } = {}) {
  const rand = prng(seed);
  mkdirSync(join(dir, 'decisions'), { recursive: true });
  const links = [];
  for (let i = 0; i < concepts; i++) {
    const area = `mod${i % 50}`;
    const id = `adr-${String(i).padStart(4, '0')}`;
    const rules = [];
    for (let r = 0; r < rulesPer; r++) {
      rules.push(
        `    - id: r${r}\n      pattern: "forbidden${i}_${r}\\\\(|legacyCall${Math.floor(rand() * 1e6)}\\\\("\n      severity: ${r ? 'suggestion' : 'bug'}\n      title: "Decision ${i} rule ${r}"`,
      );
    }
    if (structuralEvery && i % structuralEvery === 0) {
      rules.push(
        `    - id: s0\n      ast: forbidden${i}_0($$$)\n      language: typescript\n      severity: bug\n      title: "Decision ${i} structural rule"`,
      );
    }
    const text = `---\ntype: Architecture Decision\nid: ${id}\ntitle: "Decision ${i} for ${area}"\nx:\n  paths:\n    - "src/${area}/**"\n  domain: ${area}\n  rules:\n${rules.join('\n')}\n---\n# Decision ${i}\n\n${'We keep the module boundaries explicit. '.repeat(20)}\n`;
    writeFileSync(join(dir, 'decisions', `${id}.md`), text);
    links.push(`- [Decision ${i}](decisions/${id}.md)`);
  }
  writeFileSync(
    join(dir, 'index.md'),
    `---\ntype: Index\ntitle: Bench bundle\n---\n# Bench bundle\n\n${links.join('\n')}\n`,
  );
}
