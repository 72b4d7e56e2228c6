/**
 * SARIF output checked against the official SARIF 2.1.0 JSON Schema (vendored in
 * test/fixtures/sarif/, taken from the @microsoft/jest-sarif package, MIT), with ajv. Two facts
 * the schema cannot state are checked by hand: ruleIndex points at the rule named by ruleId, and
 * URIs are real URI references (a space in a path must be percent-encoded).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule from 'ajv-draft-04';

// The package is CommonJS with a default export: under NodeNext its class sits on .default.
const Ajv = AjvModule.default;
import { fixturesDir } from './repo.js';

// RFC 3986 characters only: unreserved, reserved, and percent escapes.
const URI_REFERENCE = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const isUri = (s: string) => URI_REFERENCE.test(s) && /^[A-Za-z][A-Za-z0-9+.-]*:/.test(s);

const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false }); // the schema's language pattern is not valid with the u flag;
ajv.addFormat('uri', isUri);
ajv.addFormat('uri-reference', (s: string) => URI_REFERENCE.test(s));
ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)));
const validate = ajv.compile(JSON.parse(readFileSync(join(fixturesDir, 'sarif', 'sarif-schema-2.1.0.json'), 'utf8')));

interface Log {
  runs?: Array<{
    tool?: { driver?: { rules?: Array<{ id?: string }> } };
    results?: Array<{ ruleId?: string; ruleIndex?: number }>;
  }>;
}

/** Every problem found, as `path: message` lines; empty for a valid log. */
export function sarifProblems(log: unknown): string[] {
  const problems: string[] = [];
  if (!validate(log)) {
    for (const e of validate.errors ?? []) {
      const params = e.params as Record<string, unknown>;
      const detail = params.additionalProperty
        ? ` "${String(params.additionalProperty)}"`
        : params.allowedValues
          ? ` ${JSON.stringify(params.allowedValues)}`
          : '';
      problems.push(`${e.instancePath || '/'}: ${e.message ?? 'invalid'}${detail}`);
    }
  }
  ((log as Log).runs ?? []).forEach((run, r) => {
    const ids = (run.tool?.driver?.rules ?? []).map((rule) => rule.id);
    (run.results ?? []).forEach((result, i) => {
      if (result.ruleIndex !== undefined && result.ruleIndex >= 0 && ids[result.ruleIndex] !== result.ruleId) {
        problems.push(`/runs/${r}/results/${i}/ruleIndex: rules[${result.ruleIndex}] is not ${String(result.ruleId)}`);
      }
    });
  });
  return problems;
}
