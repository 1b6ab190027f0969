#!/usr/bin/env bash
# A capture in which kswapd reclaims page cache (root, tracefs; for a machine without swap).
#
#   scripts/capture/reclaim.sh DIR [CACHE_MIB] [MARGIN_MIB] [TOUCH_MIB] [MEMCGS] [OFFLINE]
#
# 1. writes and reads a CACHE_MIB file (default 1024) so its clean pages sit on the file LRU;
#    with MEMCGS (default 0) it is MEMCGS files instead, each written and read from a memory
#    cgroup of its own (cgroup v1 memory controller at /sys/fs/cgroup/memory), and the first
#    OFFLINE of those cgroups are then removed: offline, they keep their page cache charged,
#    which 6.18's reclaim scrapes at every priority; the rest are removed at the end;
# 2. a first holder takes all but 2 GiB of MemFree: on a kernel that initialises its struct pages
#    on demand (CONFIG_DEFERRED_STRUCT_PAGE_INIT: zones grow, `managed` included, as they run
#    low), the zones only reach their final size once memory has been used, and MemFree counts
#    memory the zones do not hold yet;
#    then a second holder (touch --hold, order 0, oom_score_adj 1000 so an OOM kill, should one come, takes
#    it and nothing else) fills memory until the free pages of the zones an order-0 movable
#    allocation can use (DMA32 and Normal) are MARGIN_MIB (default 32) above their low watermarks;
# 3. capture.sh traces, system-wide, `touch TOUCH_MIB` (default 96): its faults take the zones
#    below their low watermarks, the allocator wakes kswapd, kswapd reclaims the file pages;
# 4. the holder and the file go away.
# Nothing is written to a sysctl. With swap, or too little page cache, do not run this.
set -euo pipefail
out=$1; cache=${2:-1024}; margin=${3:-32}; touchmb=${4:-96}; memcgs=${5:-0}; offline=${6:-0}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
holders=""
cgdirs=""
cleanup() {
	for h in $holders; do kill "$h" 2>/dev/null; wait "$h" 2>/dev/null || true; done
	rm -rf "$work"
	for d in $cgdirs; do [ -d "$d" ] && rmdir "$d" 2>/dev/null; done
	true
}
trap cleanup EXIT
[ "$(awk '/SwapTotal/ {print $2}' /proc/meminfo)" = 0 ] || { echo "reclaim: swap is on" >&2; exit 2; }
gcc -O2 -o "$work/touch" "$here/touch.c"
if [ "$memcgs" -gt 0 ]; then
	# each cgroup writes and reads its own share: its pages are charged to it
	for i in $(seq 1 "$memcgs"); do
		d=/sys/fs/cgroup/memory/buddyscope-reclaim-$$-$i
		mkdir "$d"
		cgdirs="$cgdirs $d"
		sh -c 'echo $$ > "$1/cgroup.procs"; dd if=/dev/zero of="$2" bs=1M count="$3" status=none; sync; cat "$2" > /dev/null' \
			cache "$d" "$work/cache$i.bin" $((cache / memcgs))
	done
	i=0
	for d in $cgdirs; do
		i=$((i + 1))
		[ "$i" -le "$offline" ] && rmdir "$d"
	done
	echo "reclaim: $memcgs memory cgroups filled, $offline of them removed (offline)"
else
	dd if=/dev/zero of="$work/cache.bin" bs=1M count="$cache" status=none
	sync
	cat "$work/cache.bin" > /dev/null
fi
# free pages above the low watermark, summed over DMA32 and Normal (DMA is kept for DMA users by
# lowmem_reserve, so a movable allocation cannot count on it), the per-CPU lists' pages included:
# zoneinfo's free count leaves them out, and an allocation takes them first (pcp->high is
# auto-tuned up to hundreds of MiB per CPU on 6.18)
headroom() {
	awk '/^Node/ {z=$4} z!="DMA32" && z!="Normal" {next}
	     /^  pages free/ {f+=$3} /^        low/ {l+=$2} /^ +count:/ {f+=$2}
	     END {print int((f-l)*4/1024)}' /proc/zoneinfo
}
hold() { # MiB: start a holder and wait until it has touched its memory
	"$work/touch" "$1" --hold > "$work/held$1" &
	holders="$! $holders"
	echo 1000 > /proc/$!/oom_score_adj
	until grep -q held "$work/held$1"; do sleep 0.2; done
}
first=$(($(awk '/MemFree/ {print int($2/1024)}' /proc/meminfo) - 2048))
if [ "$first" -gt 0 ]; then
	echo "reclaim: holding $first MiB first"
	hold "$first"
fi
room=$(headroom)
second=$((room - margin))
[ "$second" -gt 0 ] || { echo "reclaim: only $room MiB above the low watermarks" >&2; exit 2; }
echo "reclaim: $room MiB above the low watermarks; holding $second MiB more"
hold "$second"
# other processes free and take memory meanwhile: top up (a few times) until the margin is met
for _ in 1 2 3; do
	sleep 3 # kswapd, woken by the holding, reclaims above the high watermark: let it finish
	room=$(headroom)
	[ "$room" -gt $((margin + 16)) ] || break
	echo "reclaim: $room MiB above the low watermarks; holding $((room - margin)) MiB more"
	hold $((room - margin))
done
echo "reclaim: now $(headroom) MiB above the low watermarks; MemFree $(awk '/MemFree/ {print int($2/1024)}' /proc/meminfo) MiB"
"$here/capture.sh" "$out" --events 'vmscan:mm_vmscan_wakeup_kswapd vmscan:mm_vmscan_kswapd_wake vmscan:mm_vmscan_kswapd_sleep vmscan:mm_vmscan_direct_reclaim_begin vmscan:mm_vmscan_direct_reclaim_end vmscan:mm_vmscan_lru_shrink_inactive vmscan:mm_vmscan_lru_shrink_active' -- "$work/touch" "$touchmb"
