# shellcheck shell=bash
# Shared by the action's scripts (sourced, not run): what marks the harness as installed in the
# action's checkout. install.sh writes the mark after `npm ci` and `npm run build`; prepare.sh
# compares it, so that a second use of the action in one job installs nothing (`npm run build`
# starts by removing dist/, mark and all).

# The sha256 of the action's package-lock.json: the npm cache's key.
lock_hash() {
  node -e 'process.stdout.write(require("crypto").createHash("sha256").update(require("fs").readFileSync(process.argv[1])).digest("hex"))' \
    "$GITHUB_ACTION_PATH/package-lock.json"
}

# What the mark holds: the lock file's hash and the Node version the harness was installed with.
install_mark() {
  printf '%s node %s\n' "$(lock_hash)" "$(node --version)"
}

# shellcheck disable=SC2034 # read by the scripts that source this one
INSTALL_MARK_FILE="$GITHUB_ACTION_PATH/dist/.action-installed"
