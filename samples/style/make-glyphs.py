#!/usr/bin/env python3
"""Generates the sample style's SDF glyph ranges from Debian's DejaVu fonts.

    apt-get install fonts-dejavu-core
    pip install freetype-py numpy
    python3 samples/style/make-glyphs.py            # writes samples/style/glyphs/

For each font it writes all 256 range files `glyphs/<font name>/<start>-<end>.pbf` (0-255 …
65280-65535), like a glyph server's directory. The ranges in RASTERISED (or --ranges) carry every
glyph the font has there; the others are written empty (font stack name and range, no glyphs) to
keep the sample small: a renderer shows nothing for those code points.

The output follows node-fontnik / sdf-glyph-foundry, which made the glyph PBFs Mapbox and
MapLibre renderers read: 24 px em (FreeType, 72 dpi, no hinting), 3 px buffer, 8 px radius,
cutoff 0.25; each pixel holds 255 - clamp(distance × 32 + 64), distances in pixels from the
pixel centre to the flattened outline, negative inside (so the outline is at 191); rows top
first; left = round(xMin), top = round(yMax) - ascender, width/height of the rounded outline
box, advance = horiAdvance truncated to whole pixels. The protobuf is the glyphs message:

    message glyphs    { repeated fontstack stacks = 1; }
    message fontstack { required string name = 1; required string range = 2; repeated glyph glyphs = 3; }
    message glyph     { required uint32 id = 1; optional bytes bitmap = 2; required uint32 width = 3;
                        required uint32 height = 4; required sint32 left = 5; required sint32 top = 6;
                        required uint32 advance = 7; }

The same font files give the same bytes on every run.
"""
import argparse
import math
import os
import sys

import freetype
import numpy as np

FONT_DIR = "/usr/share/fonts/truetype/dejavu"
FONTS = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"]
# Basic Latin … Cyrillic (0-1279) and General Punctuation, where the sample's names have their
# dashes and quotes (U+2013, U+2019) and the euro sign lives (8192-8447).
RASTERISED = [(0, 1279), (8192, 8447)]

SIZE = 24
BUFFER = 3
RADIUS = 8
CUTOFF = 0.25


# --- protobuf -------------------------------------------------------------------------------

def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(v):
    return (v << 1) ^ (v >> 63) if v < 0 else v << 1


def field_varint(number, v):
    return varint(number << 3) + varint(v)


def field_bytes(number, b):
    return varint((number << 3) | 2) + varint(len(b)) + b


# --- outline to SDF -------------------------------------------------------------------------

def c_round(x):
    """std::round: halves away from zero."""
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def flatten(outline):
    """The outline as closed rings of points (pixels, y up), curves cut into short segments."""
    rings = []
    ring = []

    def close():
        if ring:
            if ring[0] != ring[-1]:
                ring.append(ring[0])
            rings.append(list(ring))
            ring.clear()

    def move_to(a, _):
        close()
        ring.append((a.x / 64.0, a.y / 64.0))

    def line_to(a, _):
        ring.append((a.x / 64.0, a.y / 64.0))

    def conic_to(c, a, _):
        x0, y0 = ring[-1]
        cx, cy, x1, y1 = c.x / 64.0, c.y / 64.0, a.x / 64.0, a.y / 64.0
        steps = max(2, min(32, int(math.hypot(x1 - x0, y1 - y0) + math.hypot(cx - x0, cy - y0))))
        for i in range(1, steps + 1):
            t = i / steps
            u = 1 - t
            ring.append((u * u * x0 + 2 * u * t * cx + t * t * x1, u * u * y0 + 2 * u * t * cy + t * t * y1))

    def cubic_to(c1, c2, a, _):
        x0, y0 = ring[-1]
        ax, ay, bx, by = c1.x / 64.0, c1.y / 64.0, c2.x / 64.0, c2.y / 64.0
        x1, y1 = a.x / 64.0, a.y / 64.0
        length = math.hypot(ax - x0, ay - y0) + math.hypot(bx - ax, by - ay) + math.hypot(x1 - bx, y1 - by)
        steps = max(2, min(48, int(length)))
        for i in range(1, steps + 1):
            t = i / steps
            u = 1 - t
            ring.append((u ** 3 * x0 + 3 * u * u * t * ax + 3 * u * t * t * bx + t ** 3 * x1,
                         u ** 3 * y0 + 3 * u * u * t * ay + 3 * u * t * t * by + t ** 3 * y1))

    outline.decompose(None, move_to=move_to, line_to=line_to, conic_to=conic_to, cubic_to=cubic_to)
    close()
    return [r for r in rings if len(r) >= 2]


def render(face, index, ascender):
    """(bitmap, width, height, left, top, advance) of one glyph, as sdf-glyph-foundry makes them."""
    face.load_glyph(index, freetype.FT_LOAD_NO_HINTING)
    slot = face.glyph
    advance = int(slot.metrics.horiAdvance / 64)
    empty = (b"", 0, 0, 0, -ascender, advance)
    if slot.format != freetype.FT_GLYPH_FORMAT_OUTLINE:
        return empty
    rings = flatten(slot.outline)
    if not rings:
        return empty
    pts = np.concatenate([np.array(r, dtype=np.float64) for r in rings])
    xmin, ymin = c_round(pts[:, 0].min()), c_round(pts[:, 1].min())
    xmax, ymax = c_round(pts[:, 0].max()), c_round(pts[:, 1].max())
    width, height = xmax - xmin, ymax - ymin
    if width == 0 or height == 0:
        return empty

    # Segments, shifted so the outline box starts at (buffer, buffer).
    a = np.concatenate([np.array(r[:-1], dtype=np.float64) for r in rings])
    b = np.concatenate([np.array(r[1:], dtype=np.float64) for r in rings])
    shift = np.array([-xmin + BUFFER, -ymin + BUFFER], dtype=np.float64)
    a += shift
    b += shift

    bw, bh = width + 2 * BUFFER, height + 2 * BUFFER
    ys, xs = np.mgrid[0:bh, 0:bw]
    px = (xs + 0.5).reshape(-1, 1)
    py = (ys + 0.5).reshape(-1, 1)
    ax, ay, bx, by = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
    dx, dy = bx - ax, by - ay
    l2 = dx * dx + dy * dy
    with np.errstate(divide="ignore", invalid="ignore"):
        t = ((px - ax) * dx + (py - ay) * dy) / l2
    t = np.where(l2 == 0, 0.0, np.clip(t, 0.0, 1.0))
    qx, qy = ax + t * dx, ay + t * dy
    d2 = (px - qx) ** 2 + (py - qy) ** 2
    d2 = np.where(d2 < RADIUS * RADIUS, d2, np.inf)
    dist = np.sqrt(d2.min(axis=1))

    # Even-odd ray casting over every ring, as PolyContainsPoint does.
    crosses = (ay > py) != (by > py)
    with np.errstate(divide="ignore", invalid="ignore"):
        xcross = dx * (py - ay) / dy + ax
    inside = (np.count_nonzero(crosses & (px < xcross), axis=1) % 2) == 1

    d = dist * (256 / RADIUS)
    d = np.where(inside, -d, d) + CUTOFF * 256
    n = np.where(d > 255, 255, np.trunc(np.nan_to_num(d, posinf=255.0)))
    n = np.clip(n, 0, 255).astype(np.int64)
    values = (255 - n).reshape(bh, bw)[::-1, :]  # row 0 is the top
    return values.astype(np.uint8).tobytes(), width, height, xmin, ymax - ascender, advance


def font_name(face):
    return face.family_name.decode() + " " + face.style_name.decode()


def range_pbf(face, name, start, end, rasterise, ascender):
    body = field_bytes(1, name.encode()) + field_bytes(2, f"{start}-{end}".encode())
    if rasterise:
        for code in range(start, end + 1):
            index = face.get_char_index(code)
            if not index:
                continue
            bitmap, width, height, left, top, advance = render(face, index, ascender)
            glyph = field_varint(1, code)
            if width > 0:
                glyph += field_bytes(2, bitmap)
            glyph += (field_varint(3, width) + field_varint(4, height) + field_varint(5, zigzag(left))
                      + field_varint(6, zigzag(top)) + field_varint(7, advance))
            body += field_bytes(3, glyph)
    return field_bytes(1, body)


def parse_ranges(text):
    ranges = []
    for part in text.split(","):
        lo, hi = part.split("-")
        ranges.append((int(lo), int(hi)))
    return ranges


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fonts", default=FONT_DIR, help="directory of the DejaVu .ttf files")
    parser.add_argument("--output", default=os.path.join(here, "glyphs"), help="glyphs directory to write")
    parser.add_argument("--ranges", type=parse_ranges, default=RASTERISED,
                        help="code points to rasterise, e.g. 0-1279,8192-8447 (other ranges are written empty)")
    args = parser.parse_args()

    total = 0
    for file in FONTS:
        face = freetype.Face(os.path.join(args.fonts, file))
        face.set_char_size(0, SIZE * 64, 0, 0)
        ascender = int(face.size.ascender / 64)
        name = font_name(face)
        out_dir = os.path.join(args.output, name)
        os.makedirs(out_dir, exist_ok=True)
        glyphs = 0
        for start in range(0, 65536, 256):
            end = start + 255
            rasterise = any(lo <= end and start <= hi for lo, hi in args.ranges)
            data = range_pbf(face, name, start, end, rasterise, ascender)
            with open(os.path.join(out_dir, f"{start}-{end}.pbf"), "wb") as f:
                f.write(data)
            total += len(data)
            if rasterise:
                glyphs += sum(1 for c in range(start, end + 1) if face.get_char_index(c))
        print(f"{name}: {glyphs} glyphs rasterised", file=sys.stderr)
    print(f"{total} bytes in {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
