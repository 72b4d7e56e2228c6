/** The demo repository's files at each step, and how the demo's human answers each finding. */
import type { TrailerRow } from '../record/row.js';
import type { HumanVerdict } from '../core/vocabulary.js';

const controllerWithQuery = `import { db } from '../db.js';

export async function getOrder(id: string) {
  // ADR: controllers do not talk to the database; and the SQL is built by concatenation.
  return db.query("SELECT * FROM orders WHERE id = '" + id + "'");
}
`;

const controllerFixed = `import { findOrder } from '../repositories/orders.js';

export async function getOrder(id: string) {
  return findOrder(id);
}
`;

const repository = `import { db } from '../db.js';

export function findOrder(id: string) {
  return db.query('SELECT * FROM orders WHERE id = $1', [id]);
}
`;

const syncJob = (withDebugger: boolean) => `export async function syncOrders(fetchAll: () => Promise<unknown[]>) {
  const orders = await fetchAll();
${withDebugger ? '  debugger;\n' : ''}  return orders.length;
}
`;

const formatUtil = (withDebugger: boolean) => `export function formatPrice(cents: number): string {
${withDebugger ? '  debugger;\n' : ''}  return (cents / 100).toFixed(2);
}
`;

const orderTest = `import { test } from 'node:test';

test.skip('getOrder returns the order', async () => {
  // flaky against the shared staging database
});
`;

// Table names from a fixed list, not user input: the SQL rule's finding here is a false positive.
const migration = `const TABLES = ['orders', 'customers'] as const;

export function truncateAll(run: (sql: string) => void) {
  for (const table of TABLES) run('DELETE FROM ' + table);
}
`;

// The same constant-list pattern again: the SQL rule's finding here is a false positive too.
const archive = `const TABLES = ['orders', 'customers'] as const;

export function purgeArchived(run: (sql: string) => void) {
  for (const table of TABLES) run('DELETE FROM ' + table + ' WHERE archived = true');
}
`;

// Money from floating-point cents: what the demo's stand-in model flags (no rule holds it).
const invoice = (fixed: boolean) => `export function invoiceLine(name: string, cents: number): string {
  return \`\${name}: \${${fixed ? 'formatCents(cents)' : '(cents / 100).toFixed(2)'}}\`;
}
${fixed ? "\nconst formatCents = (cents: number) => `${Math.trunc(cents / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;\n" : ''}`;

const receipt = (fixed: boolean) => `export function receiptTotal(cents: number[]): string {
  const total = cents.reduce((a, b) => a + b, 0);
  return ${fixed ? "`${Math.trunc(total / 100)}.${String(total % 100).padStart(2, '0')}`" : '(total / 100).toFixed(2)'};
}
`;

// The team's second decision, written down after the first round; its rule runs on every .ts file.
const noConsoleAdr = `---
type: Architecture Decision
id: adr-0002
title: Shipped code logs through the logger
status: accepted
x:
  paths: ["**/*.ts"]
  rules:
    - id: no-console-log
      pattern: 'console\\.log\\('
      severity: nit
      category: style
      title: console.log instead of the logger
      message: Log through src/log.ts, which the service's log shipping reads.
---
# ADR-0002: Shipped code logs through the logger

Output from shipped code goes through \`src/log.ts\`, so that it reaches the log shipping.
`;

const testHelper = (name: string) => `export function ${name}(rows: unknown[]) {
  console.log(JSON.stringify(rows, null, 2));
}
`;

export const demoFiles = {
  /** The second decision and the index line that links it. */
  decision: {
    path: '.okfw/decisions/adr-0002-shipped-code-logs-through-the-logger.md',
    text: noConsoleAdr,
    link: '- [ADR-0002: Shipped code logs through the logger](decisions/adr-0002-shipped-code-logs-through-the-logger.md)\n',
  },
  /** Test helpers that print on purpose: what two people answer "not a violation" for. */
  testHelpers: {
    'test/helpers/dump-orders.ts': testHelper('dumpOrders'),
    'test/helpers/dump-customers.ts': testHelper('dumpCustomers'),
  } as Record<string, string>,
  helperRationale: (file: string) =>
    `not a violation: \`console.log\` in ${file}, a test helper whose output the test runner captures; nothing under test/ ships`,
  baseline: {
    '.gitignore': 'node_modules/\n.revtrail/\n',
    'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', private: true }, null, 2) + '\n',
    'src/db.ts': 'export const db = { query: async (sql: string, params: unknown[] = []) => [sql, params] };\n',
    'src/jobs/sync.ts': syncJob(false),
    'src/util/format.ts': formatUtil(false),
  } as Record<string, string>,
  violation: {
    'src/controllers/orders.ts': controllerWithQuery,
    'src/jobs/sync.ts': syncJob(true),
    'src/util/format.ts': formatUtil(true),
    'test/orders.test.ts': orderTest,
    'src/db/migrate.ts': migration,
    'src/billing/invoice.ts': invoice(false),
    'src/billing/receipt.ts': receipt(false),
  } as Record<string, string>,
  fix: {
    'src/controllers/orders.ts': controllerFixed,
    'src/repositories/orders.ts': repository,
    'src/jobs/sync.ts': syncJob(false),
    'src/util/format.ts': formatUtil(false),
    'src/billing/invoice.ts': invoice(true),
    'src/billing/receipt.ts': receipt(true),
  } as Record<string, string>,
  calibrated: {
    'src/db/archive.ts': archive,
  } as Record<string, string>,
  /** What the demo's developer says of each finding. */
  answer(row: TrailerRow): { verdict: HumanVerdict; rationale: string } {
    if (row.category === 'testing' || row.severity === 'test') {
      return { verdict: 'DEFER', rationale: 'flaky against staging; tracked in #42, re-enable by 2027-01-15' };
    }
    if (row.rule_source.includes('debugger')) {
      return { verdict: 'ACCEPT', rationale: `removed the debugger statement from ${row.file}` };
    }
    if (row.rule_source.endsWith(':money-as-float')) {
      return { verdict: 'ACCEPT', rationale: `${row.file} formats integer cents, no floating point` };
    }
    if (row.file === 'src/db/migrate.ts') {
      return {
        verdict: 'REJECT',
        rationale:
          "false positive: table names come from a constant list, `const TABLES = ['orders', 'customers']` in src/db/migrate.ts:1",
      };
    }
    if (row.rule_source.includes('sql')) {
      return { verdict: 'ACCEPT', rationale: 'the query is parameterized ($1) in src/repositories/orders.ts' };
    }
    if (row.category === 'architecture') {
      return { verdict: 'ACCEPT', rationale: 'the controller now calls findOrder from src/repositories/orders.ts' };
    }
    return { verdict: 'ACKNOWLEDGE', rationale: 'documented intent: see the demo README' };
  },
};
