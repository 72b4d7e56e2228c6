/**
 * A small YAML writer for the candidate frontmatter (plain data only: objects, arrays,
 * strings, numbers, booleans, null). The `yaml` package writes the same documents but takes
 * a good part of a second for a few thousand evidence entries; this stays linear. Strings that
 * could read as anything but themselves are written as JSON strings, which YAML reads back
 * unchanged (test/candidates/yaml.test.ts parses every output with the `yaml` package).
 */
const PLAIN = /^[A-Za-z_][A-Za-z0-9_./@+-]*(?: [A-Za-z0-9_./@+(),;'`-]+)*$/;
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~|[-+]?(?:\.inf|\.nan))$/i;

export function yamlScalar(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : JSON.stringify(String(value));
  const text = String(value);
  return PLAIN.test(text) && !RESERVED.test(text) ? text : JSON.stringify(text);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a value is written on lines of its own (a mapping or sequence with something in it). */
function isBlock(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (!isObject(value)) return false;
  for (const _ in value) return true;
  return false;
}

/** An empty mapping or sequence, or a scalar, on the line of its key or dash. */
function inline(value: unknown): string {
  return isObject(value) ? '{}' : Array.isArray(value) ? '[]' : yamlScalar(value);
}

/**
 * Appends the lines of `value` to `out`, each indented by `pad`, except that the first line
 * starts with `first` instead (a sequence item's `- `). One list for the whole document: a few
 * thousand evidence entries make no string twice.
 */
function emit(value: unknown, pad: string, first: string, out: string[]): void {
  let lead = first;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push(`${lead}[]`);
      return;
    }
    const inner = `${pad}  `;
    for (const item of value) {
      if (isObject(item) && isBlock(item)) emit(item, inner, `${lead}- `, out);
      else if (isBlock(item)) {
        out.push(`${lead}-`);
        emit(item, inner, inner, out);
      } else out.push(`${lead}- ${inline(item)}`);
      lead = pad;
    }
    return;
  }
  if (isObject(value)) {
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const v = value[key];
      const k = yamlScalar(key);
      if (isBlock(v)) {
        out.push(`${lead}${k}:`);
        emit(v, `${pad}  `, `${pad}  `, out);
      } else out.push(`${lead}${k}: ${inline(v)}`);
      lead = pad;
    }
    return;
  }
  out.push(`${lead}${yamlScalar(value)}`);
}

/** Lines of a block mapping or sequence, each indented by `indent` spaces. */
export function toYaml(value: unknown, indent = 0): string {
  const pad = ' '.repeat(indent);
  const out: string[] = [];
  emit(value, pad, pad, out);
  return out.join('\n');
}
