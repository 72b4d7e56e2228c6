/** `revtrail install` (docs/hooks.md): husky's installer, then revtrail's commit-msg and pre-push hooks. */
import { defineCommand } from '../command.js';
import { lazyRun } from '../handlers.js';

export interface InstallArgs {
  force: boolean;
  repair: boolean;
  json: boolean;
  appendPrepare: boolean;
  fromPrepare: boolean;
  server?: string;
  printServerHook: boolean;
  lefthook: boolean;
  preCommit: boolean;
  simpleGitHooks: boolean;
  recordHooks: boolean;
}

export default defineCommand<InstallArgs>({
  command: 'install',
  describe: 'Install the commit-msg and pre-push hooks through husky (idempotent)',
  builder: (yargs) =>
    yargs
      .usage(
        '$0 install [--force] [--append-prepare]\n\n' +
          'Sets core.hooksPath to .husky/_ (husky), writes the hooks in .husky/ (or adds a marked revtrail\n' +
          'block to your own), and adds the script that sets them up in fresh clones ("prepare", or\n' +
          '"postinstall" under yarn berry: revtrail install --from-prepare || true) to a top-level\n' +
          'package.json without one. revtrail uninstall undoes exactly that; revtrail doctor checks it.',
      )
      .option('force', {
        type: 'boolean',
        default: false,
        describe:
          "Install through husky even when core.hooksPath points elsewhere or a hook manager is set up; that folder's hooks keep running, chained from .husky/ (uninstall restores it)",
      })
      .option('repair', {
        type: 'boolean',
        default: false,
        describe:
          "Put husky's runner back where another tool replaced it (that tool's script moves to .git/hooks/ and keeps running, chained)",
      })
      .option('append-prepare', {
        type: 'boolean',
        default: false,
        describe:
          'Also write the setup script into a package.json that has its own (appended: "yours && (ours)") or sits in a subfolder',
      })
      .option('lefthook', {
        type: 'boolean',
        default: false,
        describe:
          'Set revtrail up inside lefthook instead of husky: scripts in .lefthook/, their entries added to your lefthook.yml in place (core.hooksPath untouched)',
      })
      .option('pre-commit', {
        type: 'boolean',
        default: false,
        describe:
          'Set revtrail up inside the pre-commit framework instead of husky: scripts in .revtrail-hooks/, a repo: local entry per hook added to your .pre-commit-config.yaml in place',
      })
      .option('record-hooks', {
        type: 'boolean',
        default: false,
        describe:
          'With --lefthook or --pre-commit: also the hooks that keep the record through amends, rebases and merges (each is one more manager launch per commit)',
      })
      .option('simple-git-hooks', {
        type: 'boolean',
        default: false,
        describe:
          'Set revtrail up inside simple-git-hooks: scripts in .revtrail-hooks/, joined to each hook\'s command in package.json "simple-git-hooks", then simple-git-hooks run',
      })
      .option('from-prepare', {
        type: 'boolean',
        default: false,
        describe: "What the prepare script runs: husky's setup only, never failing the package install",
      })
      .option('server', {
        type: 'string',
        requiresArg: true,
        describe:
          'Install the server gate into the repository REPO on this server (its pre-receive hook; docs/server.md)',
      })
      .option('print-server-hook', {
        type: 'boolean',
        default: false,
        describe: 'Print the server hook script instead of writing it (GitLab custom_hooks, your own pre-receive)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'Print what was done as JSON' })
      .example('$0 install', 'from any folder of the work tree')
      .example(
        '$0 install --server /srv/git/project.git',
        'on the server: reject pushes the gate blocks, whatever the clients run',
      )
      .example('$0 install --lefthook', 'a team on lefthook, then: npx lefthook install'),
  run: lazyRun('install', 'install'),
});
