# Not a hook: the lookup of the revtrail CLI that every hook script starting revtrail shares.
# `revtrail install` puts these lines, indented, where a template says @REVTRAIL_FIND_CLI@
# (lib/install/install.ts, docs/hooks.md "Hook scripts"); everything down to the first blank line
# is this note and is left out.

revtrail_bin=@REVTRAIL_BIN@
revtrail_cli=
for revtrail_try in "$revtrail_bin" node_modules/.bin/revtrail; do
  if [ -n "$revtrail_try" ] && [ -f "$revtrail_try" ] && [ -x "$revtrail_try" ]; then
    revtrail_cli=$revtrail_try
    break
  fi
done
if [ -z "$revtrail_cli" ]; then
  # A worktree added after install has no node_modules of its own: the main worktree's install.
  revtrail_main=$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null) || revtrail_main=
  case $revtrail_main in
    */.git)
      for revtrail_try in "${revtrail_main%/.git}/${revtrail_bin:-node_modules/.bin/revtrail}" "${revtrail_main%/.git}/node_modules/.bin/revtrail"; do
        if [ -f "$revtrail_try" ] && [ -x "$revtrail_try" ]; then
          revtrail_cli=$revtrail_try
          break
        fi
      done
      ;;
  esac
fi
if [ -z "$revtrail_cli" ] && command -v revtrail >/dev/null 2>&1; then
  revtrail_cli=revtrail
fi
