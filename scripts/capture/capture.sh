#!/usr/bin/env bash
# Capture a page-allocator trace of one command from a real kernel (root, tracefs).
#
#   scripts/capture/capture.sh OUT.trace [--cpu N] [--fresh-cpu] -- COMMAND...
#
# --cpu N pins the command to CPU N. --fresh-cpu takes that CPU offline and back online first,
# so its per-CPU lists start empty (page_alloc_cpu_dead drains them) and the trace shows the
# refills. Only the command's process tree is traced (set_event_pid + event-fork).
set -euo pipefail

out=$1; shift
cpu=""; fresh=0
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	case $1 in
	--cpu) cpu=$2; shift 2 ;;
	--fresh-cpu) fresh=1; shift ;;
	*) echo "capture: unknown option $1" >&2; exit 2 ;;
	esac
done
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "capture: no command given" >&2; exit 2; }

T=/sys/kernel/tracing
[ -e $T/set_event ] || mount -t tracefs nodev $T
echo 0 > $T/tracing_on
echo > $T/trace
echo 16384 > $T/buffer_size_kb
echo 'kmem:mm_page_alloc kmem:mm_page_free kmem:mm_page_free_batched kmem:mm_page_pcpu_drain kmem:mm_page_alloc_zone_locked kmem:mm_page_alloc_extfrag' > $T/set_event
echo 1 > $T/options/event-fork
if [ "$fresh" = 1 ] && [ -n "$cpu" ] && [ "$cpu" != 0 ]; then
	echo 0 > /sys/devices/system/cpu/cpu$cpu/online
	echo 1 > /sys/devices/system/cpu/cpu$cpu/online
fi
# the traced shell execs the command, so its pid is the command's
bash -c 'echo $$ > '$T'/set_event_pid; echo 1 > '$T'/tracing_on; exec '"${cpu:+taskset -c $cpu }"'"$@"' capture "$@"
echo 0 > $T/tracing_on
cat $T/trace > "$out"
echo > $T/set_event_pid
echo > $T/set_event
echo "capture: $(grep -vc '^#' "$out") events in $out"
