#!/usr/bin/env bash
# The action's step "Look for an installed harness" (action.yml). Writes to GITHUB_OUTPUT:
#   lock-hash   the sha256 of the action's package-lock.json, the npm cache's key
#   npm-cache   npm's cache folder, what the cache step keeps
#   installed   true when an earlier use of the action in this job installed and built the harness
#               from this lock file with this Node (the mark install.sh leaves in dist/): the cache
#               and install steps are then skipped
set -euo pipefail
# shellcheck source=scripts/action/common.sh
. "$GITHUB_ACTION_PATH/scripts/action/common.sh"

installed=false
if [ -f "$INSTALL_MARK_FILE" ] && [ -f "$GITHUB_ACTION_PATH/dist/lib/cli/main.js" ] && [ -d "$GITHUB_ACTION_PATH/node_modules" ] &&
  [ "$(cat "$INSTALL_MARK_FILE")" = "$(install_mark)" ]; then
  installed=true
  echo "The harness is installed and built in $GITHUB_ACTION_PATH already (an earlier use of the action in this job)."
fi
{
  echo "lock-hash=$(lock_hash)"
  echo "npm-cache=$(npm config get cache)"
  echo "installed=$installed"
} >>"$GITHUB_OUTPUT"
