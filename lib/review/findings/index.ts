/**
 * The finding contract (docs/review.md), all of it: ./contract.ts, ./schema.ts and the JSON Schema handed
 * to reviewer programs. The review path imports the contract alone, so zod's JSON Schema
 * converter (a large module) is loaded only with a reviewer program.
 */
import * as z from 'zod/mini';
import { submittedFindingSchema } from './schema.js';

export * from './contract.js';
export * from './schema.js';

let jsonSchema: Record<string, unknown> | undefined;

/** The JSON Schema of a submitted finding: the `schema` field of a reviewer program's input. */
export function findingJsonSchema(): Record<string, unknown> {
  jsonSchema ??= z.toJSONSchema(submittedFindingSchema) as Record<string, unknown>;
  return jsonSchema;
}
