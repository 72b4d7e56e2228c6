/**
 * A Node built-in module loaded when first needed. Loading some of them costs milliseconds
 * (crypto ~5 ms, v8, worker_threads), and the hooks run on every commit: modules on that path
 * take them here, on first use, instead of at import (docs/hooks.md "Start-up").
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

export const crypto = (): typeof import('node:crypto') => load('node:crypto') as typeof import('node:crypto');
export const v8 = (): typeof import('node:v8') => load('node:v8') as typeof import('node:v8');
export const workerThreads = (): typeof import('node:worker_threads') => load('node:worker_threads') as typeof import('node:worker_threads');
