/** Every user-facing message about configuration. */
export const configMessages = {
  unreadable: (file: string, why: string) => `cannot read ${file}: ${why}`,
  unreadableRemedy: 'Check the file permissions.',
  notJson: (file: string, why: string) => `${file} is not valid JSON: ${why}`,
  notJsonRemedy: 'Fix the JSON syntax (a trailing comma is a common cause).',
  where: (file: string | null) => file ?? 'configuration',
  unknownKeys: (keys: readonly string[]) => `unknown key${keys.length === 1 ? '' : 's'} ${keys.map((k) => `"${k}"`).join(', ')}`,
  badValue: (key: string, why: string) => `"${key || '(root)'}" is invalid: ${why}`,
  expected: (what: string) => `expected ${what}`,
  notEmpty: 'must not be empty',
  atLeast: (n: string) => `must be at least ${n}`,
  above: (n: string) => `must be greater than ${n}`,
  atMost: (n: string) => `must be at most ${n}`,
  below: (n: string) => `must be less than ${n}`,
  invalidValue: 'invalid value',
  notAnObjectRemedy: 'The configuration is one JSON object, for example {"knowledge": ".okfw"}.',
  badConfigRemedy: 'See the configuration table in the README for the keys and their types.',
};
