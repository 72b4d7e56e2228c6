/** `revtrail init`: revtrail.config.json and a starter bundle at the work tree's top level. */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';

export interface InitArgs {
  json: boolean;
  docMap: boolean;
}

export default defineCommand<InitArgs>({
  command: 'init',
  describe: 'Write revtrail.config.json and a starter knowledge bundle (.okfw/); never overwrites',
  builder: (yargs) =>
    yargs
      .option('json', { type: 'boolean', default: false, describe: 'Print what was written and kept as JSON' })
      .option('doc-map', {
        type: 'boolean',
        default: false,
        describe: 'Write a starter doc map (design documents without frontmatter) instead of a starter bundle',
      })
      .example('$0 init', 'set revtrail up in this repository (from any folder inside it)')
      .example('$0 init --doc-map', 'map existing design documents (docs/adr/*.md ...) to the code they govern'),
  run: lazyRun('init', 'init'),
});
