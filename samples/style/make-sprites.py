#!/usr/bin/env python3
"""Draws the sample style's sprite: a few simple icons, the project's own work.

    pip install pillow
    python3 samples/style/make-sprites.py      # writes samples/style/sprite{,@2x}.{png,json}

Each icon is drawn at 8× its final size and scaled down (antialiasing), once per pixel ratio, so
the @2x sheet is a sharp redraw rather than an upscale. Icons sit in one row, 2 px apart (× the
ratio). The JSON is the GL sprite index: {"name": {"x", "y", "width", "height", "pixelRatio"}},
keys sorted. The same Pillow version gives the same bytes on every run.
"""
import json
import math
import os

from PIL import Image, ImageDraw

SUPERSAMPLE = 8
GAP = 2

DARK = (51, 51, 51, 255)
WHITE = (255, 255, 255, 255)
BROWN = (121, 85, 72, 255)
GOLD = (240, 170, 30, 255)
BLUE = (40, 100, 200, 255)


def dot(draw, s):
    """A town dot: dark disc in a white ring."""
    draw.ellipse([0, 0, s - 1, s - 1], fill=WHITE)
    inset = s * 0.2
    draw.ellipse([inset, inset, s - 1 - inset, s - 1 - inset], fill=DARK)


def square(draw, s):
    """A village square: blue with a white border."""
    draw.rectangle([0, 0, s - 1, s - 1], fill=WHITE)
    inset = s * 0.18
    draw.rectangle([inset, inset, s - 1 - inset, s - 1 - inset], fill=BLUE)


def star(draw, s):
    """A point of interest: five-pointed gold star with a dark outline."""
    c = (s - 1) / 2
    points = []
    for i in range(10):
        r = c if i % 2 == 0 else c * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        points.append((c + r * math.cos(a), c + r * math.sin(a) + s * 0.04))
    draw.polygon(points, fill=GOLD, outline=DARK, width=max(1, int(s * 0.06)))


def triangle(draw, s):
    """A mountain peak: brown triangle with a white outline."""
    draw.polygon([(s / 2, 0), (s - 1, s - 1), (0, s - 1)], fill=WHITE)
    inset = s * 0.16
    draw.polygon([(s / 2, inset * 1.8), (s - 1 - inset, s - 1 - inset * 0.8), (inset, s - 1 - inset * 0.8)],
                 fill=BROWN)


ICONS = [("dot", 11, dot), ("square", 11, square), ("star", 15, star), ("triangle", 13, triangle)]


def sheet(ratio):
    width = sum(size * ratio for _, size, _ in ICONS) + GAP * ratio * (len(ICONS) - 1)
    height = max(size for _, size, _ in ICONS) * ratio
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    index = {}
    x = 0
    for name, size, draw_icon in ICONS:
        px = size * ratio
        big = Image.new("RGBA", (px * SUPERSAMPLE, px * SUPERSAMPLE), (0, 0, 0, 0))
        draw_icon(ImageDraw.Draw(big), px * SUPERSAMPLE)
        image.paste(big.resize((px, px), Image.Resampling.LANCZOS), (x, 0))
        index[name] = {"x": x, "y": 0, "width": px, "height": px, "pixelRatio": ratio}
        x += px + GAP * ratio
    return image, index


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for ratio in (1, 2):
        image, index = sheet(ratio)
        suffix = "" if ratio == 1 else f"@{ratio}x"
        image.save(os.path.join(here, f"sprite{suffix}.png"), optimize=True)
        with open(os.path.join(here, f"sprite{suffix}.json"), "w") as f:
            json.dump(index, f, indent=2, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
