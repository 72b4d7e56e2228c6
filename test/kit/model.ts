/**
 * The model reviewer's stand-in answers, shared by the CLI's and the editor's model tests
 * (test/review/model-reviewer.test.ts, test/lsp/model.test.ts): the hooks' fixture bundle's
 * ADR-0001 keeps SQL out of controllers, and this controller builds its own.
 */
export const CONTROLLER = 'export function list(req) {\n  const sql = "SELECT * FROM orders";\n  return run(sql);\n}\n';
export const CONTROLLER_PATH = 'src/controllers/orders.ts';

/** A finding on line 2 of the controller, citing the ADR the chunk selects. */
export const controllerFinding = (overrides: Record<string, unknown> = {}) => ({
  path: CONTROLLER_PATH,
  start_line: 2,
  line: 2,
  severity: 'bug',
  category: 'architecture',
  title: 'Controller builds its own SQL',
  body: 'The controller assembles SQL; ADR-0001 keeps queries in repositories.',
  citations: ['adr-0001'],
  suggestion_code: null,
  confidence: 0.9,
  rule: 'no-sql-in-controllers',
  ...overrides,
});
