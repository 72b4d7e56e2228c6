/**
 * The editor stage (docs/editor.md): the language server `revtrail lsp` starts. Loaded only by
 * that command's handler, so no other command or hook reads the protocol libraries.
 */
export { startServer, DEFAULT_DEBOUNCE_MS, type ServerOptions } from './server.js';
