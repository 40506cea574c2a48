#!/bin/sh
# Runs a ROM image in cen64 until the program says "done: ..." or TIMEOUT
# seconds pass, then stops the emulator (it never exits by itself).
#
#   run_cen64.sh TIMEOUT PIF IPL LOG
#
# cen64 boots PIF (the project's boot code) in its 64DD mode, which maps IPL
# at 0x06000000, with the IS-Viewer on; it needs a display even when it has
# nothing to show (-headless stops it at once), so it runs under xvfb-run.
# Its standard output is block-buffered when it is not a terminal: stdbuf -o0.
# Exit status 0 when the program said "done:".
set -u
timeout=$1 pif=$2 ipl=$3 log=$4
wrap=""
if command -v xvfb-run > /dev/null; then
    wrap="xvfb-run -a"
elif [ -z "${DISPLAY:-}" ]; then
    echo "run_cen64.sh: cen64 needs a display: install xvfb (xvfb-run)" >&2
    exit 2
fi
: > "$log"
# A session of its own, so that cen64, Xvfb and xvfb-run stop together.
setsid $wrap stdbuf -o0 cen64 -noaudio -is-viewer -ddipl "$ipl" "$pif" > "$log" 2>&1 < /dev/null &
pid=$!
tenths=0
status=1
while [ $tenths -lt $((timeout * 10)) ]; do
    if grep -q '^done: ' "$log"; then
        status=0
        break
    fi
    kill -0 $pid 2> /dev/null || break
    sleep 0.1
    tenths=$((tenths + 1))
done
kill -TERM -$pid 2> /dev/null
wait $pid 2> /dev/null
if [ $status -ne 0 ]; then
    echo "run_cen64.sh: $ipl did not finish in ${timeout}s; cen64 said:" >&2
    grep -v '^px ' "$log" | tail -n 20 >&2
fi
exit $status
