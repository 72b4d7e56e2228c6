/** Every user-facing message about configuration. */
export const configMessages = {
  unreadable: (file: string, why: string) => `cannot read ${file}: ${why}`,
  unreadableRemedy: 'Check the file permissions.',
  notJson: (file: string, why: string) => `${file} is not valid JSON: ${why}`,
  notJsonRemedy: 'Fix the JSON syntax (a trailing comma is a common cause).',
  unknownKey: (file: string | null, key: string) => `${file ?? 'configuration'}: unknown key "${key}"`,
  badValue: (file: string | null, key: string, why: string) =>
    `${file ?? 'configuration'}: "${key || '(root)'}" is invalid: ${why}`,
  expected: (what: string) => `expected ${what}`,
  notEmpty: 'must not be empty',
  atLeast: (n: string) => `must be at least ${n}`,
  above: (n: string) => `must be greater than ${n}`,
  atMost: (n: string) => `must be at most ${n}`,
  below: (n: string) => `must be less than ${n}`,
  invalidValue: 'invalid value',
  badConfigRemedy: 'See the configuration table in the README for the keys and their types.',
};
