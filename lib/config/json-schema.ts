/**
 * revtrail.schema.json: the configuration's JSON Schema, generated from the one zod schema
 * (zod 4's toJSONSchema), so an editor completes and checks revtrail.config.json with exactly
 * the rules revtrail applies. `node scripts/schema.mjs` writes it; a test checks it is current.
 */
import * as z from 'zod/mini';
import { configSchema } from './schema.js';

export function configJsonSchema(): Record<string, unknown> {
  // The input side: what a person writes (defaults are optional there).
  const schema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, title: 'revtrail configuration (revtrail.config.json)' };
}

export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
