/**
 * Past a file's cap (./cap.ts, docs/review.md "Big files") the credential rules still see every
 * line that could hold a credential: the rest of the file is screened for the credential rules'
 * needles, and each added line holding one is kept, as a one-line hunk at its own line number,
 * for the rules to judge. Kept lines are bounded (KEEP_BYTES a file; a long line keeps a window
 * around its needle); past that bound the rest is unread, and one marker line says so, which
 * the credential rule `builtin/secrets:unread-past-cap` turns into a blocking finding: as for
 * time, what was not read blocks.
 *
 * The needles are the built-in credential rules' own (lib/review/credential-screen.ts computes
 * them from the rules); the diff stage cannot import the rules, so they are listed here and
 * test/diff/past-cap.test.ts fails when the rules' needles change.
 */
import { escapeRegExp } from '../core/regex-escape.js';
import { formatHunk } from './format.js';
import { parseHunkHeader } from './hunk-header.js';

export const CREDENTIAL_NEEDLES = {
  exact: [
    '"auth"',
    '-----BEGIN ',
    '--pass',
    '.webhook.office.com/webhookb2/',
    ':*:',
    ':543',
    ':6432:',
    ':AA',
    ':x-oauth-basic@',
    'A3-',
    'A3T',
    'ABIA',
    'ABSK',
    'ACCA',
    'AGE-SECRET-KEY-1',
    'AIzaSy',
    'AKCp',
    'AKIA',
    'API-',
    'ASIA',
    'AccountKey=',
    'CLOJARS_',
    'EZAK',
    'EZTK',
    'HRKU-AA',
    'LS0tLS1CRUdJTi',
    'LTAI',
    'PMAK-',
    'SG.',
    'SK',
    'T3BlbkFJ',
    'ZXlK',
    '_auth',
    '_v1_',
    'api_org_',
    'bedrock-api-key-',
    'dapi',
    'dckr_pat_',
    'dp.audit.',
    'dp.ct.',
    'dp.pt.',
    'dp.sa.',
    'dp.scim.',
    'dp.st.',
    'dt0c01.',
    'duffel_live_',
    'duffel_test_',
    'eyJ',
    'fio-u-',
    'fm1a_',
    'fm1r_',
    'fm2_',
    'fo1_',
    'gh',
    'github_pat_',
    'glagent-',
    'glc_',
    'glcbt-',
    'gldt-',
    'glffct-',
    'glft-',
    'glimt-',
    'gloas-',
    'glpat-',
    'glptt-',
    'glrt-',
    'glsa_',
    'glsoat-',
    'hf_',
    'hooks.slack.com/',
    'http',
    'hv',
    'k_live_',
    'k_prod_',
    'k_test_',
    'lin_api_',
    'mysql',
    'npm_',
    'ntn_',
    'ops_eyJ',
    'password',
    'pnu_',
    'pplx-',
    'pscale_oauth_',
    'pscale_pw_',
    'pscale_tkn_',
    'pul-',
    'pypi-AgEIcHlwaS5vcmc',
    'rdme_',
    'rubygems_',
    'sha256~',
    'shippo_live_',
    'shippo_test_',
    'shpat_',
    'shpca_',
    'shppa_',
    'shpss_',
    'sk-ant-admin',
    'sk-ant-api',
    'sntrys_',
    'sntryu_',
    'sq0atp-',
    'sq0csp-',
    'sshpass',
    'tk-us-',
    'v1.0-',
    'whsec_',
    'xapp-',
    'xkeysib-',
    'xox',
  ],
  folded: ['secret'],
} as const;

/** The marker line for what was not read; the rule builtin/secrets:unread-past-cap matches it. */
export const UNREAD_MARKER = 'revtrail: credential-shaped lines past the size cap were not read';

/** Kept text a file (past its cap), and the window a long line keeps around its needle. */
export const KEEP_BYTES = 1024 * 1024;
const WINDOW_BEFORE = 256;
const WINDOW_AFTER = 3 * 1024;
/** A line longer than this is screened in windows (their overlap catches a needle across two). */
const LONG_LINE = 1024 * 1024;
const OVERLAP = 256;

const EXACT = new RegExp(CREDENTIAL_NEEDLES.exact.map(escapeRegExp).join('|'));
// Without `u`, `i` folds ASCII letters only: right on bytes read as latin1.
const FOLDED = new RegExp(CREDENTIAL_NEEDLES.folded.map(escapeRegExp).join('|'), 'i');

function needleAt(text: string): number {
  const a = EXACT.exec(text)?.index ?? -1;
  const b = FOLDED.exec(text)?.index ?? -1;
  return a === -1 ? b : b === -1 ? a : Math.min(a, b);
}

/**
 * One file's bytes past its cap in (latin1 pieces, as they come), the hunks of the lines to keep
 * out. `next`: the old and new line numbers the next line would have (null: the cut was not
 * inside a hunk).
 */
export class PastCapScreen {
  private partial = '';
  /** The current line is longer than LONG_LINE: the part seen so far was screened already. */
  private long = false;
  /** The first byte of a long line (its marker: `+`, ` `, `-`). */
  private longFirst = 0;
  private kept = false;
  private readonly out: string[] = [];
  private outBytes = 0;
  private unread: number | null = null;
  private old: number;
  private line: number;
  private inHunk: boolean;

  constructor(
    next: { old: number; new: number } | null,
    private readonly budget = KEEP_BYTES,
  ) {
    this.old = next?.old ?? 0;
    this.line = next?.new ?? 0;
    this.inHunk = next !== null;
  }

  write(piece: string): void {
    let start = 0;
    for (let nl = piece.indexOf('\n'); nl !== -1; nl = piece.indexOf('\n', start)) {
      this.partial += piece.slice(start, nl);
      this.endLine();
      start = nl + 1;
    }
    this.partial += piece.slice(start);
    if (this.partial.length > LONG_LINE) {
      // Screen what is here, keep an overlap for a needle across the seam.
      if (!this.long) this.longFirst = this.partial.charCodeAt(0);
      if (this.inHunk && this.longFirst === 0x2b) this.screen(this.partial);
      this.partial = this.partial.slice(-OVERLAP);
      this.long = true;
    }
  }

  /** Bytes of kept lines so far. */
  get used(): number {
    return this.outBytes;
  }

  /** The kept lines as hunks (latin1), and the marker when something was not read. */
  end(): string {
    if (this.partial) this.endLine();
    if (this.unread !== null)
      this.out.push(keptLine(this.old, this.unread, `${UNREAD_MARKER} (from line ${this.unread})`));
    return this.out.join('');
  }

  private endLine(): void {
    const text = this.partial.endsWith('\r') ? this.partial.slice(0, -1) : this.partial;
    const first = this.long ? this.longFirst : text.charCodeAt(0);
    if (!this.long && first === 0x40 && text.charCodeAt(1) === 0x40) {
      const hunk = parseHunkHeader(text);
      if (hunk) {
        this.old = hunk.oldStart;
        this.line = hunk.newStart;
        this.inHunk = true;
      }
    } else if (this.inHunk && first === 0x2b) {
      if (!this.kept) this.screen(text);
      this.line++;
    } else if (this.inHunk && (first === 0x20 || text === '')) {
      this.old++;
      this.line++;
    } else if (this.inHunk && first === 0x2d) this.old++;
    this.partial = '';
    this.long = false;
    this.kept = false;
  }

  /** Keeps a window of `text` (an added line, or a piece of a long one) around its first needle. */
  private screen(text: string): void {
    // The line's own `+` goes: the first piece of a long line has it too.
    const body = text.charCodeAt(0) === 0x2b && !this.long ? text.slice(1) : text;
    const at = needleAt(body);
    if (at === -1 || this.kept) return;
    const window =
      body.length <= WINDOW_BEFORE + WINDOW_AFTER
        ? body
        : body.slice(Math.max(0, at - WINDOW_BEFORE), at + WINDOW_AFTER);
    const hunk = keptLine(this.old, this.line, window);
    this.kept = true;
    if (this.unread !== null) return;
    if (this.outBytes + hunk.length > this.budget) {
      this.unread = this.line;
      return;
    }
    this.out.push(hunk);
    this.outBytes += hunk.length;
  }
}

/** One added line kept at its own line number, as a hunk of its own, written by the one writer. */
function keptLine(old: number, line: number, text: string): string {
  return formatHunk({
    oldStart: old,
    oldLines: 0,
    newStart: line,
    newLines: 1,
    section: '',
    lines: [{ kind: 'add', text, oldLine: null, newLine: line }],
  });
}
