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

/** Lines of a block mapping or sequence, each indented by `indent` spaces. */
export function toYaml(value: unknown, indent = 0): string {
  const pad = ' '.repeat(indent);
  const out: string[] = [];
  if (Array.isArray(value)) {
    if (value.length === 0) return `${pad}[]`;
    for (const item of value) {
      if (isObject(item) && Object.keys(item).length) {
        const inner = toYaml(item, indent + 2).split('\n');
        out.push(`${pad}- ${inner[0]!.slice(indent + 2)}`, ...inner.slice(1));
      } else if (Array.isArray(item) && item.length) {
        out.push(`${pad}-`, toYaml(item, indent + 2));
      } else out.push(`${pad}- ${isObject(item) ? '{}' : Array.isArray(item) ? '[]' : yamlScalar(item)}`);
    }
    return out.join('\n');
  }
  if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      const k = yamlScalar(key);
      if ((isObject(v) && Object.keys(v).length) || (Array.isArray(v) && v.length)) out.push(`${pad}${k}:`, toYaml(v, indent + 2));
      else out.push(`${pad}${k}: ${isObject(v) ? '{}' : Array.isArray(v) ? '[]' : yamlScalar(v)}`);
    }
    return out.join('\n');
  }
  return `${pad}${yamlScalar(value)}`;
}
