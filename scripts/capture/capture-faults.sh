#!/usr/bin/env bash
# Capture the mmap_lock tracepoints and exceptions:page_fault_user around faultbench (root,
# tracefs), with and without a concurrent mmap/munmap loop, and restore every tracing setting
# it touched (tracing_on, the buffer size, the events, the pid filter, event-fork, the mount).
#
#   scripts/capture/capture-faults.sh OUTDIR
set -euo pipefail

outdir=$1
here=$(cd "$(dirname "$0")" && pwd)
T=/sys/kernel/tracing
mounted=0
if [ ! -e $T/set_event ]; then
	mount -t tracefs nodev $T
	mounted=1
fi
old_on=$(cat $T/tracing_on)
old_kb=$(cat $T/buffer_size_kb)
old_events=$(cat $T/set_event)
old_pids=$(cat $T/set_event_pid)
old_fork=$(cat $T/options/event-fork)
restore() {
	echo 0 > $T/tracing_on
	echo > $T/set_event_pid
	[ -z "$old_pids" ] || for p in $old_pids; do echo "$p" >> $T/set_event_pid; done
	echo > $T/set_event
	[ -z "$old_events" ] || for e in $old_events; do echo "$e" >> $T/set_event; done
	echo "$old_fork" > $T/options/event-fork
	echo "$old_kb" > $T/buffer_size_kb
	echo > $T/trace
	echo "$old_on" > $T/tracing_on
	[ "$mounted" = 0 ] || umount $T
}
trap restore EXIT

gcc -O2 -pthread -o "$outdir/faultbench" "$here/faultbench.c"
for churn in 0 1; do
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo 65536 > $T/buffer_size_kb
	echo 'mmap_lock:* exceptions:page_fault_user' > $T/set_event
	echo 1 > $T/options/event-fork
	bash -c 'echo $$ > '$T'/set_event_pid; echo 1 > '$T'/tracing_on; exec "$@"' capture \
		"$outdir/faultbench" 2 $churn 20000 > "$outdir/faultbench-$churn.out"
	echo 0 > $T/tracing_on
	cat $T/trace > "$outdir/faults-2threads-churn$churn.trace"
	echo "capture: churn=$churn $(grep -vc '^#' "$outdir/faults-2threads-churn$churn.trace") events, $(cat "$outdir/faultbench-$churn.out")"
done
rm -f "$outdir/faultbench"
