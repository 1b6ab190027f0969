#!/usr/bin/env python3
"""pagecache.py FILE MODE: page cache traffic for a capture.

  drop  write FILE back and drop its pages from the page cache (POSIX_FADV_DONTNEED), so the
        next read allocates every page anew
  read  read FILE through the page cache (1 MiB reads: readahead allocates large folios where the
        filesystem supports them), then drop its pages again (the frees)
"""
import os
import sys

path, mode = sys.argv[1], sys.argv[2]
fd = os.open(path, os.O_RDONLY)
if mode == "read":
    while os.read(fd, 1 << 20):
        pass
elif mode != "drop":
    sys.exit(f"pagecache.py: unknown mode {mode}")
os.fdatasync(fd)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
os.close(fd)
