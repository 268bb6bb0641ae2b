#!/usr/bin/env python3
"""Reference data for Sources/Photos/DifferenceHash.swift, computed by Pillow and imagehash.

Writes, into OUTDIR, one set of files per test picture and a manifest.txt with one line per case:

    name width height channels target_width target_height dhash

  name.raw   the picture's interleaved bytes (channels 1 = L, 2 = LA, 3 = RGB, 4 = RGBA)
  name.L     Pillow's convert("L") of it (width * height bytes)
  name.out   Pillow's convert("L").resize((target_width, target_height), LANCZOS)
  dhash      imagehash.dhash(picture) as 16 hex digits, or "-" when the target is not 9 x 8

Pictures are generated from a seed (random sizes 1x1 to 2000x1500, noise, smooth gradients,
blocks, near-flat content) plus fixed edge cases (upscaling, one row, one column, no resize).
With --files, decoded picture files are written instead (Pillow's decoding, converted to RGB,
RGBA, L or LA), so the same comparison runs on real photos.

Needs Pillow, numpy and imagehash (pip install pillow imagehash). Run with python3.
"""

import argparse
import os
import sys

import imagehash
import numpy
from PIL import Image

MODES = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}


def smooth(rng, h, w, c):
    ys = numpy.linspace(0, 1, h)[:, None, None]
    xs = numpy.linspace(0, 1, w)[None, :, None]
    out = rng.uniform(0, 255) + numpy.zeros((h, w, c))
    for _ in range(rng.integers(1, 5)):
        fx, fy = rng.uniform(-6, 6, 2)
        phase = rng.uniform(0, 6.3, c)
        out += rng.uniform(10, 90) * numpy.sin(2 * numpy.pi * (fx * xs + fy * ys) + phase)
    out += rng.uniform(-80, 80) * xs + rng.uniform(-80, 80) * ys
    return numpy.clip(out, 0, 255)


def picture(rng, h, w, c, kind):
    if kind == "noise":
        return rng.integers(0, 256, (h, w, c), dtype=numpy.uint8)
    if kind == "smooth":
        return smooth(rng, h, w, c).round().astype(numpy.uint8)
    if kind == "smooth+noise":
        return numpy.clip(smooth(rng, h, w, c) + rng.normal(0, 6, (h, w, c)), 0, 255).astype(numpy.uint8)
    if kind == "blocks":
        out = numpy.full((h, w, c), rng.integers(0, 256), dtype=numpy.uint8)
        for _ in range(rng.integers(1, 12)):
            y0, y1 = sorted(rng.integers(0, h + 1, 2))
            x0, x1 = sorted(rng.integers(0, w + 1, 2))
            out[y0:y1, x0:x1] = rng.integers(0, 256, c)
        return out
    if kind == "flat":  # near-flat: many equal neighbours after the resize, the ties dhash sees
        base = int(rng.integers(0, 256))
        return numpy.clip(base + rng.integers(-1, 2, (h, w, c)), 0, 255).astype(numpy.uint8)
    raise ValueError(kind)


def write(outdir, manifest, name, pixels, target=(9, 8)):
    h, w, c = pixels.shape
    data = pixels.reshape(h, w) if c == 1 else pixels
    image = Image.fromarray(numpy.ascontiguousarray(data), MODES[c]) if h and w else Image.new(MODES[c], (w, h))
    grey = image.convert("L")
    out = grey.resize(target, Image.Resampling.LANCZOS)
    digest = "-"
    if target == (9, 8):
        digest = str(imagehash.dhash(image))
        row = numpy.asarray(out, dtype=numpy.int16)
        bits = (row[:, 1:] > row[:, :-1]).flatten()
        assert digest == "{:016x}".format(int("".join("1" if b else "0" for b in bits), 2)), name
    with open(os.path.join(outdir, name + ".raw"), "wb") as f:
        f.write(pixels.tobytes())
    with open(os.path.join(outdir, name + ".L"), "wb") as f:
        f.write(grey.tobytes())
    with open(os.path.join(outdir, name + ".out"), "wb") as f:
        f.write(out.tobytes())
    manifest.write(f"{name} {w} {h} {c} {target[0]} {target[1]} {digest}\n")


def generated(outdir, manifest, count, seed):
    rng = numpy.random.default_rng(seed)
    fixed = [  # (width, height, target): upscaling, one row, one column, no resize, pass order
        (1, 1, (9, 8)), (5, 4, (9, 8)), (9, 8, (9, 8)), (2, 2, (9, 8)), (9, 1, (9, 8)),
        (1, 8, (9, 8)), (2000, 1, (9, 8)), (1, 1500, (9, 8)), (3, 100, (9, 8)), (100, 3, (9, 8)),
        (18, 8, (9, 8)), (9, 800, (9, 8)), (10, 1500, (9, 8)), (8, 7, (9, 8)), (12, 30, (9, 8)),
        (2000, 1500, (9, 8)), (1500, 2000, (9, 8)), (640, 480, (9, 8)), (0, 0, (9, 8)),
        (0, 5, (9, 8)), (7, 0, (9, 8)), (9, 8, (1, 1)), (5, 4, (40, 30)), (300, 200, (1, 200)),
    ]
    cases = 0
    for w, h, target in fixed:
        for c in (1, 3):
            kind = "smooth+noise" if w * h > 100 else "noise"
            write(outdir, manifest, f"fixed-{w}x{h}-{target[0]}x{target[1]}-c{c}",
                  picture(rng, h, w, c, kind) if w and h else numpy.zeros((h, w, c), numpy.uint8), target)
            cases += 1
    kinds = ["noise", "smooth", "smooth+noise", "blocks", "flat"]
    for i in range(count):
        # Sizes log-uniform, so that small and odd sizes are as common as photo sizes.
        w = int(round(numpy.exp(rng.uniform(0, numpy.log(2000)))))
        h = int(round(numpy.exp(rng.uniform(0, numpy.log(1500)))))
        c = int(rng.choice([1, 2, 3, 3, 3, 4]))
        kind = kinds[i % len(kinds)]
        target = (9, 8)
        if i % 4 == 3:  # the resize in general, downscaling and upscaling
            target = (int(rng.integers(1, 64)), int(rng.integers(1, 64)))
        write(outdir, manifest, f"random-{i:04d}-{kind}", picture(rng, h, w, c, kind), target)
        cases += 1
    return cases


def from_files(outdir, manifest, paths):
    cases = 0
    for i, path in enumerate(paths):
        try:
            image = Image.open(path)
            image.load()
        except Exception as error:  # test suites hold broken files on purpose
            print(f"skipped {path}: {error}", file=sys.stderr)
            continue
        mode = image.mode if image.mode in ("L", "LA", "RGB", "RGBA") else "RGBA" if "A" in image.mode else "RGB"
        pixels = numpy.asarray(image.convert(mode))
        if pixels.ndim == 2:
            pixels = pixels[:, :, None]
        write(outdir, manifest, f"file-{i:04d}-" + os.path.basename(path).replace(" ", "_"), pixels)
        cases += 1
    return cases


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir")
    parser.add_argument("--count", type=int, default=400, help="random pictures (default 400)")
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--files", nargs="*", help="decode these picture files instead")
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    with open(os.path.join(args.outdir, "manifest.txt"), "w") as manifest:
        if args.files:
            cases = from_files(args.outdir, manifest, args.files)
        else:
            cases = generated(args.outdir, manifest, args.count, args.seed)
    import PIL
    print(f"{cases} cases in {args.outdir} (Pillow {PIL.__version__}, imagehash {imagehash.__version__})",
          file=sys.stderr)


if __name__ == "__main__":
    main()
