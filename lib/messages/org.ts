/** Every user-facing message of `revtrail org` and `revtrail mine --format parquet` (docs/org.md). */
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const pct = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 1000) / 10}%`);

export const orgMessages = {
  fromUnreadable: (file: string, why: string) => `cannot read the list of repositories ${file}: ${why}`,
  fromRemedy: 'Give a file with one repository path a line (NAME=PATH names it; # starts a comment).',
  sameName: (name: string, a: string, b: string) => `two repositories are both named "${name}": ${a} and ${b}`,
  sameNameRemedy: 'Name one of them: NAME=PATH on the command line or in the --from file.',
  missing: (name: string, path: string) => `repository ${name}: ${path} does not exist`,
  notARepository: (name: string, path: string) => `repository ${name}: ${path} is not a git repository git can read`,
  notTopLevel: (name: string, path: string, top: string) =>
    `repository ${name}: ${path} is a folder inside the repository at ${top}, not its top level`,
  noRepositories: 'no repositories given',
  badJobs: (jobs: number) => `--jobs must be a whole number of at least 1, not ${jobs}`,
  noRepositoriesRemedy: 'Name repositories (paths of work trees or bare clones), or --from FILE with one a line.',
  noFiles: (dir: string) => `no organisation files in ${dir}`,
  noFilesRemedy: 'Mine repositories into it first: revtrail org mine PATH… --dir DIR (or name the folder with --dir).',
  dirUnreadable: (dir: string, why: string) => `cannot read ${dir}: ${why}`,
  outUnwritable: (dir: string, why: string) => `cannot write the organisation files in ${dir}: ${why}`,
  progress: (done: number, total: number, name: string) => `org: ${done}/${total} repositories (${name})`,
  mined: (name: string, commits: number, records: number) =>
    `${name}: mined, ${plural(commits, 'commit')} with findings, ${plural(records, 'record')}`,
  unchanged: (name: string, commits: number, records: number) =>
    `${name}: unchanged since the last run (${plural(commits, 'commit')} with findings, ${plural(records, 'record')})`,
  skipped: (problem: string) => `revtrail: skipped ${problem}`,
  summary: (mined: number, unchanged: number, skipped: number, dir: string) =>
    `org: ${mined} mined, ${unchanged} unchanged, ${skipped} skipped; files in ${dir}`,
  someSkipped: (n: number) =>
    `revtrail: ${plural(n, 'repository was', 'repositories were')} skipped; the answer covers the others (exit 1)`,
  allSkipped: 'every repository was skipped: nothing to answer',
  statsHeading: (repositories: number) =>
    `Review findings across ${plural(repositories, 'repository', 'repositories')}`,
  statsNone: 'no findings in these repositories yet',
  statsRule: (
    rule: string,
    repositories: number,
    findings: number,
    rate: number | null,
    n: number,
    flag: string | null,
  ) =>
    `${rule}: ${plural(findings, 'finding')} in ${plural(repositories, 'repository', 'repositories')}, rejected ${pct(rate)} (n=${n})${flag ? `, ${flag}` : ''}`,
  statsNoisy: (repos: readonly string[]) => `  noisy in: ${repos.join(', ')}`,
  candidate: (id: string, rule: string, threads: number, repos: readonly string[]) =>
    `${id}: ${rule}, ${plural(threads, 'finding')} fixed and accepted in ${repos.join(', ')} (a draft for a person to review; nothing is adopted)`,
  candidateWrote: (file: string) => `  wrote ${file}`,
  candidateInBundle: (rule: string, document: string) => `${rule}: passed the gate, but ${document} holds it already`,
  candidatesNone: (rules: number) =>
    `no candidates: none of the ${plural(rules, 'rule')} of these repositories passes the gate over all of them`,
  candidateFar: (rule: string, qualifying: number, min: number, unmet: readonly string[]) =>
    `  ${rule}: ${qualifying} of ${min} qualifying findings${unmet.length ? `; unmet: ${unmet.join(', ')}` : ''}`,
  querySql: (why: string) => `the query failed: ${why.split('\n')[0]}`,
  querySqlRemedy:
    'The tables are records, threads and rules; the views rule_repository, rule_org and finding_repositories (docs/org.md "Views").',
  queryRows: (n: number) => `(${plural(n, 'row')})`,
  parquetRevisions:
    'mine --format parquet writes the history statistics read (HEAD and the mainline), not chosen revisions',
  parquetRevisionsRemedy: 'Leave out the revisions and --all (the other formats take them).',
  parquetWrote: (name: string, dir: string, commits: number, records: number) =>
    `mine: ${name}: ${plural(commits, 'commit')} with findings, ${plural(records, 'record')} as Parquet in ${dir}`,
  parquetUnchanged: (name: string, dir: string) => `mine: ${name}: unchanged, the Parquet files in ${dir} stand`,
};
