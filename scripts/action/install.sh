#!/usr/bin/env bash
# The action's step "Install and build the harness" (action.yml), in the action's own checkout:
# `npm ci` installs exactly the packages its package-lock.json pins (from the npm registry npm is
# configured with, nothing else; dev dependencies too, since the build needs TypeScript), and
# `npm run build` compiles the harness into dist/, the command the run step starts. Then the mark
# that lets a later use of the action in the same job skip both (common.sh).
set -euo pipefail
# shellcheck source=scripts/action/common.sh
. "$GITHUB_ACTION_PATH/scripts/action/common.sh"

cd "$GITHUB_ACTION_PATH"
npm ci --include=dev --no-audit --no-fund
npm run build
install_mark >"$INSTALL_MARK_FILE"
