/** Every user-facing message of `revtrail demo`. */

export const demoMessages = {
  intro: (folder: string) =>
    `revtrail demo: a throwaway repository in ${folder}\n` +
    `(your current repository is not touched; nothing leaves this machine)\n`,
  step: (n: number, what: string) => `\n== ${n}. ${what}\n`,
  calibrationConfig:
    '  revtrail.config.json: calibration.minVerdicts 2 (default 5) and gate.minAuthors 1 (default 2), since this history is short;\n' +
    '  calibration.security names builtin/injection:sql-concat (security findings are never demoted unless a rule is named)\n',
  standInConfig: (endpoint: string) =>
    `  revtrail.config.json: reviewer.model at ${endpoint}: a deterministic STAND-IN for a local model (llama-server, Ollama…),\n` +
    '  not a model: it speaks the same API and flags money formatted from floating-point cents, a rule nobody wrote yet\n',
  trailersWritten: '  The commit-msg hook recorded the findings as trailers:\n',
  candidateFile: (path: string) => `  ${path}:\n`,
  stepFailed: (what: string, output: string) => `demo step failed: ${what}\n${output}`,
  /** `folder` and `app` come quoted for a shell (they paste). */
  outro: (folder: string, app: string) =>
    `\nDone. Look around: cd ${app}\n` +
    `  git log --format='%h %s%n%(trailers:key=Review-Finding)'\n` +
    `  cat .revtrail/candidates/*.md\n` +
    `Remove it with: rm -rf ${folder}\n`,
  moreLines: (n: number) => `    … ${n} more line${n === 1 ? '' : 's'}`,
  moreVerdicts: (n: number) => `  … and ${n} more verdicts like it\n`,
  transcript: (file: string) => `Every command's whole output: ${file} (or revtrail demo --verbose)\n`,
  stepFailedRemedy: (folder: string) => `The throwaway repository is kept for a look: ${folder}`,
  notAsExpected: (what: string) => `the demo did not go as expected: ${what}`,
};
