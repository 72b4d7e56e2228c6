/**
 * Paths, solved once: the `/`-separated form revtrail shows and stores, and whether a path lies
 * in a folder. Both are lexical; a caller that must see through links compares real paths
 * (realpath first), as the bundle loader does.
 */
import { sep } from 'node:path';

/** A relative path with `/` between its parts, whatever the platform's separator. */
export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/**
 * Whether `path` is `folder` itself or lies under it: the folder first, the path second, as in
 * `path.relative(from, to)`. Both absolute and normalised (resolve() gives that); `/a/bc` is not
 * in `/a/b`.
 */
export function contains(folder: string, path: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}
