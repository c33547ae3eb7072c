#!/usr/bin/env python3
"""Renders the sample style with MapLibre Native, as a check that the style, sprites and glyph
ranges work in a real GL renderer (not part of the build or the tests).

    pip install pymgl                                   # MapLibre Native for Python
    apt-get install libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri    # software EGL
    EGL_PLATFORM=surfaceless python3 samples/style/render-preview.py out/preview.png \
        [--zoom 11] [--center 9.5536,47.1595] [--size 800x600] [--ratio 1]

The style's `mbtiles://liechtenstein` source, relative sprite and glyphs URLs are pointed at the
sample tileset and at this directory with absolute mbtiles:// and file:// URLs for the render.
"""
import argparse
import json
import os

from pymgl import Map

HERE = os.path.dirname(os.path.abspath(__file__))
TILESET = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "data", "liechtenstein.mbtiles"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("output")
    parser.add_argument("--tileset", default=TILESET, help="the sample MBTiles file")
    parser.add_argument("--zoom", type=float, default=11)
    parser.add_argument("--center", default="9.5536,47.1595", help="lon,lat")
    parser.add_argument("--size", default="800x600")
    parser.add_argument("--ratio", type=int, default=1, help="pixel ratio (2 uses sprite@2x)")
    args = parser.parse_args()

    with open(os.path.join(HERE, "style.json")) as f:
        style = json.load(f)
    style["sources"]["openmaptiles"]["url"] = "mbtiles://" + os.path.abspath(args.tileset)
    style["sprite"] = "file://" + os.path.join(HERE, style["sprite"])
    style["glyphs"] = "file://" + os.path.join(HERE, style["glyphs"])
    width, height = (int(v) for v in args.size.split("x"))
    lon, lat = (float(v) for v in args.center.split(","))
    png = Map(json.dumps(style), width, height, args.ratio, lon, lat, args.zoom).renderPNG()
    with open(args.output, "wb") as f:
        f.write(png)


if __name__ == "__main__":
    main()
