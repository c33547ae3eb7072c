#!/usr/bin/env python3
"""Checks the sharded workflow against the single-machine pipeline and for a no-op re-run.

  check_scale.py --scale out/scale --pipeline out --name liechtenstein -- make scale

1. The stitched routing tiles in SCALE/routing/NAME are the same files, byte for byte, as
   PIPELINE/routing/NAME (built from the whole PBF), and SCALE/NAME.chg equals PIPELINE/NAME.chg.
   With --bin and --pbf, each region's pack built from its extract is also compared with the pack
   built from the whole PBF for the same region: the extract's margin loses nothing.
2. Every map pack (packs/<band>/<z>-<x>-<y>.pack) the shards wrote under SCALE/maps/<region>/ equals
   the pack of the same name that the pipeline wrote for its own regions under PIPELINE/maps/mbtiles/:
   a pack holds every tile under its parent tile, whichever region asked for it.
3. The command after `--` (a second run of the workflow) reports nothing to do and changes no
   file under SCALE (contents and modification times).
"""
import argparse
import hashlib
import os
import subprocess
import sys
import tempfile


def digests(directory, suffix):
    names = sorted(n for n in os.listdir(directory) if n.endswith(suffix))
    return {n: hashlib.sha256(open(os.path.join(directory, n), "rb").read()).hexdigest() for n in names}


def map_packs(maps_root):
    """band/name -> the set of SHA-256 digests of every pack of that name under maps_root/*/packs."""
    packs = {}
    for region in sorted(os.listdir(maps_root)):
        packs_dir = os.path.join(maps_root, region, "packs")
        if not os.path.isdir(packs_dir):
            continue
        for band in sorted(os.listdir(packs_dir)):
            for name, digest in digests(os.path.join(packs_dir, band), ".pack").items():
                packs.setdefault(f"{band}/{name}", set()).add(digest)
    return packs


def snapshot(root):
    state = {}
    for base, dirs, files in os.walk(root):
        dirs.sort()
        for n in sorted(files):
            path = os.path.join(base, n)
            with open(path, "rb") as f:
                state[path] = (hashlib.sha256(f.read()).hexdigest(), os.stat(path).st_mtime_ns)
    return state


def fail(message):
    print(f"check_scale: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", required=True)
    parser.add_argument("--pipeline", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--bin", help="directory of tilepack-build, to rebuild each region from the whole PBF")
    parser.add_argument("--pbf", help="the whole PBF the regions were cut from")
    parser.add_argument("rerun", nargs=argparse.REMAINDER)
    args = parser.parse_args()

    stitched = digests(os.path.join(args.scale, "routing", args.name), ".tile")
    whole = digests(os.path.join(args.pipeline, "routing", args.name), ".tile")
    if not whole:
        fail(f"no tiles in {args.pipeline}/routing/{args.name}: run make pipeline first")
    if stitched != whole:
        only = sorted(set(stitched) ^ set(whole))
        differ = sorted(n for n in set(stitched) & set(whole) if stitched[n] != whole[n])
        fail(f"stitched tiles differ from the whole PBF's: missing on one side {only}, different bytes {differ}")
    print(f"check_scale: {len(stitched)} stitched tiles byte-identical to {args.pipeline}/routing/{args.name}")
    graphs = [os.path.join(args.scale, args.name + ".chg"), os.path.join(args.pipeline, args.name + ".chg")]
    if open(graphs[0], "rb").read() != open(graphs[1], "rb").read():
        fail(f"{graphs[0]} differs from {graphs[1]}")
    print(f"check_scale: {graphs[0]} byte-identical to {graphs[1]}")

    if args.bin and args.pbf:
        regions_dir = os.path.join(args.scale, "regions")
        regions = sorted(n[:-len(".geojson")] for n in os.listdir(regions_dir) if n.endswith(".geojson"))
        with tempfile.TemporaryDirectory() as scratch:
            for region in regions:
                whole_pack = os.path.join(scratch, region + ".routing.pack")
                subprocess.run([os.path.join(args.bin, "tilepack-build"), "routing", "--input", args.pbf,
                                "--region", os.path.join(regions_dir, region + ".geojson"),
                                "--output", whole_pack, "--quiet"], check=True, stdout=subprocess.DEVNULL)
                shard_pack = os.path.join(args.scale, "routing", region + ".routing.pack")
                if open(whole_pack, "rb").read() != open(shard_pack, "rb").read():
                    fail(f"{shard_pack} (from the region's extract) differs from the pack built from {args.pbf}")
        print(f"check_scale: {len(regions)} region packs from extracts byte-identical to packs from {args.pbf}")

    shards = map_packs(os.path.join(args.scale, "maps"))
    single = map_packs(os.path.join(args.pipeline, "maps", "mbtiles"))
    common = sorted(set(shards) & set(single))
    if not common:
        fail("no map pack name in common between the shards and the pipeline")
    differ = [n for n in common if len(shards[n] | single[n]) != 1]
    if differ:
        fail(f"map packs differ: {differ}")
    print(f"check_scale: {len(common)} map packs byte-identical to the pipeline's ({len(shards)} written by the shards)")

    command = args.rerun[1:] if args.rerun[:1] == ["--"] else args.rerun
    if command:
        before = snapshot(args.scale)
        run = subprocess.run(command, capture_output=True, text=True)
        output = run.stdout + run.stderr
        if run.returncode != 0:
            fail(f"the re-run {' '.join(command)} failed:\n{output}")
        if "Nothing to be done" not in output:
            fail(f"the re-run {' '.join(command)} did work:\n{output}")
        after = snapshot(args.scale)
        changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
        if changed:
            fail(f"the re-run changed {changed}")
        print(f"check_scale: a second run did nothing ({len(after)} files unchanged)")
    print("check_scale: OK")


if __name__ == "__main__":
    main()
