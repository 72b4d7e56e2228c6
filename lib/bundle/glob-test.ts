/**
 * How a path is matched against a glob compiled to a regex, defined once: picomatch's own test
 * for revtrail's options (a non-empty path equal to the glob, or one its regex matches). The
 * bundle's matchers use it (./globs.ts), and so does the clean check with the regexes its record
 * keeps (review/clean-check.ts), which must not load picomatch.
 */
export function globTest(glob: string, regex: RegExp): (path: string) => boolean {
  return (path) => path !== '' && (path === glob || regex.test(path));
}
