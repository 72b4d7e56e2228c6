/** The `"prepare": "husky"` script (SPEC §6), edited without disturbing the file's layout. */
import { readFile, writeFile } from 'node:fs/promises';

interface PackageJson {
  scripts?: Record<string, string>;
  [key: string]: unknown;
}

async function readPackage(file: string): Promise<{ text: string; json: PackageJson } | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  return { text, json: JSON.parse(text) as PackageJson };
}

function indentOf(text: string): string | number {
  return /^([ \t]+)"/m.exec(text)?.[1] ?? 2;
}

async function writePackage(file: string, text: string, json: PackageJson): Promise<void> {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let out = JSON.stringify(json, null, indentOf(text));
  if (eol !== '\n') out = out.replace(/\n/g, eol);
  await writeFile(file, out + (/\r?\n$/.test(text) ? eol : ''));
}

export type PrepareOutcome =
  | { kind: 'none' } // no package.json
  | { kind: 'added'; scriptsCreated: boolean }
  | { kind: 'kept'; value: string };

/** Adds "prepare": "husky" when the package has no prepare script. Throws SyntaxError on bad JSON. */
export async function addPrepare(file: string): Promise<PrepareOutcome> {
  const pkg = await readPackage(file);
  if (!pkg) return { kind: 'none' };
  const { json, text } = pkg;
  const existing = json.scripts?.prepare;
  if (typeof existing === 'string') return { kind: 'kept', value: existing };
  const scriptsCreated = json.scripts === undefined;
  json.scripts = { ...(json.scripts ?? {}), prepare: 'husky' };
  await writePackage(file, text, json);
  return { kind: 'added', scriptsCreated };
}

/** Removes the prepare script install added, if it is still "husky". */
export async function removePrepare(file: string, scriptsCreated: boolean): Promise<boolean> {
  const pkg = await readPackage(file);
  if (!pkg || pkg.json.scripts?.prepare !== 'husky') return false;
  const { json, text } = pkg;
  delete json.scripts!.prepare;
  if (scriptsCreated && Object.keys(json.scripts!).length === 0) delete json.scripts;
  await writePackage(file, text, json);
  return true;
}
