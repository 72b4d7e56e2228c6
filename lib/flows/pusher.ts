/**
 * Who pushed, as the server knows it (docs/server.md "Who pushed"): the repository's
 * `revtrail.pusherVariable` names the environment variable the hosting sets for the hooks from
 * the user it authenticated (GitLab's GL_USERNAME, Gitea's GITEA_PUSHER_EMAIL, gitolite's GL_USER,
 * git http-backend's REMOTE_USER). Nothing is trusted unless the server's own config names it: a
 * pusher over SSH or HTTP cannot set the hook's environment, and no variable is guessed.
 */
import { configValue, run } from '../core/git/commands.js';

export const PUSHER_KEY = 'revtrail.pusherVariable';

/** The authenticated pusher's name or e-mail, or null where the server names no variable or it is empty. */
export async function serverPusher(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const name = (await run(configValue(PUSHER_KEY), { cwd }))?.trim();
  if (!name || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return null;
  return env[name]?.trim() || null;
}
