"""Writes one new file per size listed in SIZES (one byte count per line) under DIR, from memory,
in 128 KiB writes on THREADS threads (file i on thread i mod THREADS), each file's blocks reserved
first (posix_fallocate: one extent up front, far less kernel work per file than allocating at
writeback), then syncs: what any tool writing that many files of those sizes pays the kernel,
without reading or encoding anything. DIR is replaced.

    python3 bench/lib/write-files.py SIZES DIR [THREADS]
"""
import os
import shutil
import sys
import threading

sizes_path, out = sys.argv[1], sys.argv[2]
threads = int(sys.argv[3]) if len(sys.argv) > 3 else 2
sizes = [int(line) for line in open(sizes_path) if line.strip()]
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
chunk = memoryview(bytes(range(256)) * 512)  # 128 KiB


def write(first):
    # os.write releases the GIL: the threads' kernel copies run side by side.
    for i in range(first, len(sizes), threads):
        fd = os.open(os.path.join(out, f"{i}.pack"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        left = sizes[i]
        if left > 0:
            os.posix_fallocate(fd, 0, left)
        while left > 0:
            left -= os.write(fd, chunk[:min(left, len(chunk))])
        os.close(fd)


workers = [threading.Thread(target=write, args=(t,)) for t in range(threads)]
for w in workers:
    w.start()
for w in workers:
    w.join()
os.sync()
