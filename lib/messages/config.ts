/** Every user-facing message about configuration. */
export const configMessages = {
  unreadable: (file: string, why: string) => `cannot read ${file}: ${why}`,
  unreadableRemedy: 'Check the file permissions.',
  notJson: (file: string, why: string) => `${file} is not valid JSON: ${why}`,
  notJsonRemedy: 'Fix the JSON syntax (a trailing comma is a common cause).',
  unknownKey: (file: string | null, key: string) => `${file ?? 'configuration'}: unknown key "${key}"`,
  badValue: (file: string | null, key: string, why: string) =>
    `${file ?? 'configuration'}: "${key || '(root)'}" is invalid: ${why}`,
  badConfigRemedy: 'See the configuration table in the README for the keys and their types.',
};
