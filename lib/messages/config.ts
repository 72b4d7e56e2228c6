/** Every user-facing message about configuration. */
export const configMessages = {
  unreadable: (file: string, why: string) => `cannot read ${file}: ${why}`,
  unreadableRemedy: (max: number) =>
    `revtrail reads a regular file of at most ${Math.round(max / 1024)} KiB here: check what the path is (a symlink to a device or a FIFO is refused) and its permissions.`,
  notJson: (file: string, why: string) => `${file} is not valid JSON: ${why}`,
  notJsonRemedy: 'Fix the JSON syntax (a trailing comma is a common cause).',
  where: (file: string | null) => file ?? 'configuration',
  didYouMean: (pairs: ReadonlyArray<[string, string]>) =>
    pairs.map(([typo, near]) => `"${typo}": did you mean "${near}"?`).join(' '),
  unknownKeys: (keys: readonly string[]) =>
    `unknown key${keys.length === 1 ? '' : 's'} ${keys.map((k) => `"${k}"`).join(', ')}`,
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
  /** A review or a hook whose configuration could not be used (docs/trust.md "Fails closed"). */
  fellBack: (problem: string) =>
    `${problem.replace(/[\r\n]+/g, ' ')}; the review ran with the default configuration and the built-in baseline`,

  // The trust store and `revtrail trust` (docs/trust.md)
  trustUnreadable: (file: string, why: string) => `cannot read the trust store ${file}: ${why}`,
  trustCorrupt: (file: string) => `the trust store ${file} is not what revtrail writes (JSON with "clones")`,
  trustUnreadableRemedy: (file: string) => `Fix or delete ${file}, then run revtrail trust again where you want it.`,
  nothingToTrust: (file: string | null) =>
    `${file ?? 'the configuration'} names no reviewer.command and no reviewer.model.endpoint off this machine: nothing to trust`,
  endpointTrusted: (endpoint: string, clone: string) => `trusted in this clone (${clone}): sending code to ${endpoint}`,
  endpointAlreadyTrusted: (endpoint: string, clone: string) =>
    `already trusted in this clone (${clone}): sending code to ${endpoint}`,
  nothingToTrustRemedy:
    "revtrail trust allows the reviewer program of this clone's configuration; a program given as --reviewer needs no trust.",
  trusted: (label: string, clone: string) => `trusted in this clone (${clone}): ${label}`,
  trustedWhere: (file: string) => `recorded in ${file}; a change to reviewer.command needs revtrail trust again`,
  alreadyTrusted: (label: string, clone: string) => `already trusted in this clone (${clone}): ${label}`,
  replaced: (label: string) => `(replaces the command trusted before: ${label})`,
  revoked: (label: string, clone: string) => `no longer trusted in this clone (${clone}): ${label}`,
  nothingRevoked: (clone: string) => `nothing was trusted in this clone (${clone})`,
};
