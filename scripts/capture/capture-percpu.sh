#!/usr/bin/env bash
# Capture the percpu allocator's tracepoints (percpu:*) from a real kernel while a command runs,
# system-wide, for SECONDS more after it ends (work it queued, e.g. a network namespace's cleanup,
# runs in kworkers). Root and tracefs.
#
#   scripts/capture/capture-percpu.sh OUT.trace SECONDS -- COMMAND...
#
# It traces in an instance of its own (instances/buddyscope-percpu), so the global tracing
# settings are never touched, and removes the instance afterwards; tracefs is unmounted again
# if it was not mounted before.
set -euo pipefail

out=$1
secs=$2
shift 2
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "capture-percpu: no command given" >&2; exit 2; }

T=/sys/kernel/tracing
mounted=0
if [ ! -e $T/instances ]; then
	mount -t tracefs nodev $T
	mounted=1
fi
I=$T/instances/buddyscope-percpu
mkdir $I
cleanup() {
	echo 0 > $I/tracing_on || true
	echo > $I/set_event || true
	rmdir $I || true
	if [ "$mounted" = 1 ]; then umount $T || true; fi
}
trap cleanup EXIT
echo 0 > $I/tracing_on
echo 1024 > $I/buffer_size_kb
echo 'percpu:*' > $I/set_event
echo 1 > $I/tracing_on
"$@"
sleep "$secs"
echo 0 > $I/tracing_on
cat $I/trace > "$out"
echo "capture-percpu: $(grep -vc '^#' "$out") events in $out"
