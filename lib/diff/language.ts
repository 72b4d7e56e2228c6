/** Language ids by file extension: what a reviewer program is told and what picks the declaration reader. */
const BY_EXTENSION: Record<string, string> = {
  go: 'go',
  java: 'java',
  kt: 'kotlin', kts: 'kotlin',
  scala: 'scala', sc: 'scala',
  groovy: 'groovy', gradle: 'groovy', gvy: 'groovy',
  cs: 'csharp',
  php: 'php',
  cpp: 'cpp', cc: 'cpp', cxx: 'cpp', 'c++': 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp', ipp: 'cpp', tpp: 'cpp',
  c: 'c', h: 'c',
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  py: 'python', pyi: 'python',
  rb: 'ruby',
  rs: 'rust',
  swift: 'swift',
  m: 'objective-c', mm: 'objective-c',
  sh: 'shell', bash: 'shell', zsh: 'shell',
  sql: 'sql',
  md: 'markdown',
  json: 'json',
  yml: 'yaml', yaml: 'yaml',
  html: 'html', css: 'css', scss: 'scss',
  vue: 'vue', svelte: 'svelte',
  dart: 'dart', ex: 'elixir', exs: 'elixir', erl: 'erlang', hs: 'haskell', lua: 'lua', pl: 'perl', r: 'r',
};

export function languageOf(path: string): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? null;
}
