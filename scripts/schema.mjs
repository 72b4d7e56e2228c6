// Writes revtrail.schema.json from the zod schema (after a build: it reads dist/).
// A test (test/cli/frictions.test.ts) fails when the committed file is not current.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const { configJsonSchemaText } = await import('../dist/lib/config/json-schema.js');
writeFileSync(fileURLToPath(new URL('../revtrail.schema.json', import.meta.url)), configJsonSchemaText());
console.log('wrote revtrail.schema.json');
