#!/bin/sh
# Installs the Debian packages named on the command line that are missing.
# As root it runs apt-get; otherwise it prints the command to run and fails.
# Everything it prints goes to standard error: the Makefile runs it while it reads itself.
set -e
exec 1>&2
missing=""
for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
    echo "Missing Debian packages:$missing"
    echo "Run: sudo apt-get install$missing"
    exit 1
fi
echo "Installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# Another apt (unattended upgrades, a second make) may hold the locks: dpkg's lock is waited
# for by apt itself (DPkg::Lock::Timeout); the package lists' lock is not, so a call that failed
# on a lock is tried again, for up to ten minutes in all. Any other failure stops at once.
wait=600
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
apt_get() {
    waited=0
    while ! apt-get -o DPkg::Lock::Timeout=$wait "$@" 2>"$errors"; do
        cat "$errors"
        if ! grep -qi 'lock' "$errors" || [ $waited -ge $wait ]; then
            echo "apt-get $*: failed"
            return 1
        fi
        echo "apt-get: another apt holds its lock; trying again in 5 s"
        sleep 5
        waited=$((waited + 5))
    done
    cat "$errors"
}
apt_get update -qq
# shellcheck disable=SC2086 # one word per package
apt_get install -y -qq --no-install-recommends $missing
