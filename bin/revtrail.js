#!/usr/bin/env node
// Thin wrapper: all behaviour lives in the bundled CLI.
import { main } from '../dist/cli/revtrail.js';

process.exitCode = await main(process.argv.slice(2));
