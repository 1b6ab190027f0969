#!/usr/bin/env bash
# Capture a page-allocator trace from a real kernel (root, tracefs), with the machine's state
# taken just before it, so a replay can start where the kernel was.
#
#   scripts/capture/capture.sh DIR [--pid] [--cpu N] [--fresh-cpu] [--events 'sys:event ...'] -- COMMAND...
#
# Makes DIR and writes there: sysctl-vm (`sysctl vm`), cgroups (/proc/cgroups), lru-state.gz
# (every LRU folio's memory cgroup, list and order, and which memory cgroups are online:
# lru-state.c, the format in traces/README.md), zoneinfo, buddyinfo, pagetypeinfo and
# vmstat-before (read in that order just before tracing starts), vmstat-after (just after it
# stops) and trace.gz (the kernel's /sys/kernel/tracing/trace text, timestamps included).
#
# The whole system is traced by default: other processes allocate and free on the same per-CPU
# lists, and leaving them out changes how full those lists are, so the refill and drain sizes of
# a replay would no longer match. --pid traces only the command's process tree instead.
# --cpu N pins the command to CPU N. --fresh-cpu takes that CPU offline and back online first,
# so its per-CPU lists start empty (page_alloc_cpu_dead drains them).
# --events adds tracepoints (e.g. 'vmscan:mm_vmscan_kswapd_wake') to the page-allocator ones.
# mm_page_free_batched is left out: every page it reports was already reported by mm_page_free
# (free_pages_prepare), so it only doubles the size of a trace.
# The vmstat worker's runs (workqueue_execute_start of vmstat_update) are always traced: they are
# the ticks that decay pcp->high and drain remote lists.
# Every tracefs setting touched is put back on exit, and tracefs is unmounted if it was not mounted.
set -euo pipefail

out=$1; shift
mkdir -p "$out"
cpu=""; fresh=0; pidonly=0; extra=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	case $1 in
	--cpu) cpu=$2; shift 2 ;;
	--fresh-cpu) fresh=1; shift ;;
	--pid) pidonly=1; shift ;;
	--events) extra=$2; shift 2 ;;
	*) echo "capture: unknown option $1" >&2; exit 2 ;;
	esac
done
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "capture: no command given" >&2; exit 2; }

T=/sys/kernel/tracing
mounted=0
if [ ! -e $T/set_event ]; then mount -t tracefs nodev $T; mounted=1; fi
WQ=$T/events/workqueue/workqueue_execute_start
old_on=$(cat $T/tracing_on)
# "7 (expanded: 1408)": the buffer is still at its boot minimum; 1408 is its configured size
old_size=$(sed -E 's/.*expanded: ([0-9]+).*/\1/; s/ .*//' $T/buffer_size_kb)
old_fork=$(cat $T/options/event-fork)
old_events=$(cat $T/set_event)
old_pids=$(cat $T/set_event_pid)
old_wq_filter=$(cat $WQ/filter)
restore() {
	echo 0 > $T/tracing_on
	echo > $T/set_event
	for e in $old_events; do echo "$e" >> $T/set_event; done
	echo > $T/set_event_pid
	for p in $old_pids; do echo "$p" >> $T/set_event_pid; done
	if [ "$old_wq_filter" = none ]; then echo 0 > $WQ/filter; else echo "$old_wq_filter" > $WQ/filter; fi
	echo "$old_fork" > $T/options/event-fork
	echo > $T/trace
	echo "$old_size" > $T/buffer_size_kb
	echo "$old_on" > $T/tracing_on
	if [ "$mounted" = 1 ]; then umount $T; fi
}
trap restore EXIT

echo 0 > $T/tracing_on
echo > $T/trace
echo 65536 > $T/buffer_size_kb
echo 'kmem:mm_page_alloc kmem:mm_page_free kmem:mm_page_pcpu_drain kmem:mm_page_alloc_zone_locked kmem:mm_page_alloc_extfrag workqueue:workqueue_execute_start' $extra > $T/set_event
echo 'function.function == vmstat_update' > $WQ/filter
echo 1 > $T/options/event-fork
if [ "$fresh" = 1 ] && [ -n "$cpu" ] && [ "$cpu" != 0 ]; then
	echo 0 > /sys/devices/system/cpu/cpu$cpu/online
	echo 1 > /sys/devices/system/cpu/cpu$cpu/online
fi
# the traced shell execs the command, so its pid is the command's; the state is read by that
# shell right before tracing starts
pidline=""
[ "$pidonly" = 1 ] && pidline='echo $$ > '$T'/set_event_pid; '
sysctl vm > "$out/sysctl-vm" 2>/dev/null
# the memory cgroups (num_cgroups counts offline ones too, which reclaim scrapes at every priority)
cat /proc/cgroups > "$out/cgroups"
# the LRU's starting state, system-wide (about a second on 24 GiB: read before the quick files)
lrs=$(mktemp -d)
gcc -O2 -o "$lrs/lru-state" "$(dirname "$0")/lru-state.c"
"$lrs/lru-state" | gzip -9 > "$out/lru-state.gz"
rm -rf "$lrs"
bash -c "$pidline"'cat /proc/zoneinfo > '"$out"'/zoneinfo; cat /proc/buddyinfo > '"$out"'/buddyinfo; cat /proc/pagetypeinfo > '"$out"'/pagetypeinfo; cat /proc/vmstat > '"$out"'/vmstat-before; echo 1 > '$T'/tracing_on; exec '"${cpu:+taskset -c $cpu }"'"$@"' capture "$@"
echo 0 > $T/tracing_on
cat /proc/vmstat > "$out/vmstat-after"
cat $T/trace > "$out/trace"
echo "capture: $(grep -vc '^#' "$out/trace") events in $out/trace.gz; lost: $(grep -c 'LOST' "$out/trace" || true)"
gzip -9f "$out/trace"
