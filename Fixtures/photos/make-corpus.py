#!/usr/bin/env python3
"""Builds the photo corpus of issue 43 and its reference dhash values.

Modes (run from anywhere; paths are relative to this file's folder):
  import ROOT   downsize the chosen photos from Debian packages extracted under ROOT
                (ROOT/<package>/... as made by `dpkg-deb -x X.deb ROOT/<package>`)
                into originals/ (<= 480 px) and large/ (<= 1600 px)
  variants      derive variants/ from originals/ (deterministic)
  hostile       write the hostile images into hostile/
  formats       write formats/: one picture in the PNG and JPEG forms a decoder must handle
  hash          write dhash.tsv with imagehash.dhash of every decodable file
  --check       recompute the hashes and report any line of dhash.tsv that differs
  table         print the distance tables (markdown) from dhash.tsv
  scaled        print how far dhash moves when Pillow decodes each JPEG at 1/2, 1/4, 1/8
                (libjpeg's DCT scaling, Image.draft) instead of whole

Needs Pillow and ImageHash from PyPI (versions pinned in README.md).
"""
import io
import os
import struct
import sys
import zlib
from random import Random

from PIL import Image, ImageDraw, ImageEnhance, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
ORIGINALS = os.path.join(HERE, "originals")
VARIANTS = os.path.join(HERE, "variants")
LARGE = os.path.join(HERE, "large")
HOSTILE = os.path.join(HERE, "hostile")
FORMATS = os.path.join(HERE, "formats")
GOLDEN = os.path.join(HERE, "dhash.tsv")

ORIGINAL_MAX = 400  # the brief allows up to 480; 400 keeps the corpus under 8 MB
PNG_ORIGINAL_MAX = 320  # a photo as PNG costs ~5 times its JPEG: these stay smaller
CONV_PNG_MAX = 160  # JPEG-born photos converted to PNG are also shrunk to this
LARGE_MAX = 1600
ORIGINAL_JPEG_QUALITY = 90
VARIANT_JPEG_QUALITY = 75  # what sites commonly re-encode at

PLASMA = "plasma-workspace-wallpapers/usr/share/wallpapers/%s/contents/images/2560x1600.jpg"
MATE = "mate-backgrounds/usr/share/backgrounds/mate/nature/%s.jpg"
SKIMAGE = "python3-skimage/usr/lib/python3/dist-packages/skimage/data/%s"
OPENCV = "opencv-doc/usr/share/doc/opencv-doc/examples/data/%s.jpg"

# name in the corpus -> path inside the extracted tree (first component: the package)
PHOTOS = {
    "plasma-bythewater": PLASMA % "BytheWater",
    "plasma-coldripple": PLASMA % "ColdRipple",
    "plasma-colorfulcups": PLASMA % "ColorfulCups",
    "plasma-darkesthour": PLASMA % "DarkestHour",
    "plasma-eveningglow": PLASMA % "EveningGlow",
    "plasma-fallenleaf": PLASMA % "FallenLeaf",
    "plasma-grey": PLASMA % "Grey",
    "plasma-kite": PLASMA % "Kite",
    "plasma-onestandsout": PLASMA % "OneStandsOut",
    "plasma-path": PLASMA % "Path",
    "plasma-summer1am": PLASMA % "summer_1am",
    "mate-aqua": MATE % "Aqua",
    "mate-blinds": MATE % "Blinds",
    "mate-dune": MATE % "Dune",
    "mate-freshflower": MATE % "FreshFlower",
    "mate-garden": MATE % "Garden",
    "mate-greenmeadow": MATE % "GreenMeadow",
    "mate-ladybird": MATE % "LadyBird",
    "mate-raindrops": MATE % "RainDrops",
    "mate-storm": MATE % "Storm",
    "mate-twowings": MATE % "TwoWings",
    "mate-yellowflower": MATE % "YellowFlower",
    "skimage-astronaut": SKIMAGE % "astronaut.png",
    "skimage-brick": SKIMAGE % "brick.png",
    "skimage-camera": SKIMAGE % "camera.png",
    "skimage-chelsea": SKIMAGE % "chelsea.png",
    "skimage-coffee": SKIMAGE % "coffee.png",
    "skimage-coins": SKIMAGE % "coins.png",
    "skimage-moon": SKIMAGE % "moon.png",
    "skimage-motorcycle": SKIMAGE % "motorcycle_left.png",
    "skimage-retina": SKIMAGE % "retina.jpg",
    "skimage-rocket": SKIMAGE % "rocket.jpg",
    "opencv-aero1": OPENCV % "aero1",
    "opencv-aloe": OPENCV % "aloeL",
    "opencv-building": OPENCV % "building",
    "opencv-butterfly": OPENCV % "butterfly",
    "opencv-fruits": OPENCV % "fruits",
    "opencv-home": OPENCV % "home",
    "opencv-leuven": OPENCV % "leuvenA",
    "opencv-squirrel": OPENCV % "squirrel_cls",
    "opencv-stuff": OPENCV % "stuff",
}

# kept near full size for the decode-at-1/8 benchmark
LARGE_PHOTOS = {
    "plasma-eveningglow": PLASMA % "EveningGlow",
    "plasma-grey": PLASMA % "Grey",
}

# Every original gets ALWAYS; two more kinds go round the originals in turn (sorted by name), so
# that each kind has a dozen or more examples while the corpus stays under 8 MB.
ALWAYS = ["q60", "q85", "half", "conv"]
IN_TURN = [["w320", "crop5"], ["crop10", "wm"], ["gray", "bright"],
           ["crop5", "wm"], ["w320", "gray"], ["crop10", "bright"]]

def born_format(path):
    with Image.open(path) as im:
        return im.format  # "JPEG" or "PNG"


def ext(fmt):
    return {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}[fmt]


def save(im, path, fmt, quality=VARIANT_JPEG_QUALITY, **extra):
    if fmt == "JPEG":
        if im.mode not in ("L", "RGB", "CMYK"):
            im = im.convert("RGB")
        im.save(path, "JPEG", quality=quality, **extra)
    else:
        if im.mode not in ("L", "RGB", "RGBA", "P", "1"):
            im = im.convert("RGB")
        if fmt == "PNG":
            extra["optimize"] = True
        im.save(path, fmt, **extra)


def downsized(im, longest):
    w, h = im.size
    if max(w, h) <= longest:
        return im.copy()
    scale = longest / max(w, h)
    return im.resize((max(1, round(w * scale)), max(1, round(h * scale))), Image.Resampling.LANCZOS)


def flat_mode(im):
    # photos here are RGB or grayscale; drop alpha and palettes so every variant starts alike
    if im.mode in ("L", "RGB"):
        return im
    if im.mode in ("LA", "I;16", "I"):
        return im.convert("L")
    return im.convert("RGB")


def do_import(root):
    os.makedirs(ORIGINALS, exist_ok=True)
    os.makedirs(LARGE, exist_ok=True)
    for name, rel in sorted(PHOTOS.items()):
        src = os.path.join(root, rel)
        fmt = born_format(src)
        with Image.open(src) as im:
            small = downsized(flat_mode(im.convert(im.mode)),
                              PNG_ORIGINAL_MAX if fmt == "PNG" else ORIGINAL_MAX)
        out = os.path.join(ORIGINALS, "%s.%s" % (name, ext(fmt)))
        save(small, out, fmt, quality=ORIGINAL_JPEG_QUALITY)
        print(out, small.size)
    for name, rel in sorted(LARGE_PHOTOS.items()):
        src = os.path.join(root, rel)
        fmt = born_format(src)
        with Image.open(src) as im:
            big = downsized(flat_mode(im.convert(im.mode)), LARGE_MAX)
        out = os.path.join(LARGE, "%s.%s" % (name, ext(fmt)))
        save(big, out, fmt, quality=ORIGINAL_JPEG_QUALITY)
        print(out, big.size)


def crop_each_side(im, share):
    w, h = im.size
    dx, dy = round(w * share), round(h * share)
    return im.crop((dx, dy, w - dx, h - dy))


def watermark(im, rng):
    """A semi-opaque box with a line of text in a corner picked by rng (as a site's logo)."""
    base = im.convert("RGBA")
    layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    w, h = base.size
    size = max(10, h // 18)
    font = ImageFont.load_default(size)
    text = "clarissa-immo.example"
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    tw, th = right - left, bottom - top
    pad = size // 3
    corner = rng.choice(["tl", "tr", "bl", "br"])
    x = pad if corner[1] == "l" else w - tw - 3 * pad
    y = pad if corner[0] == "t" else h - th - 3 * pad
    draw.rectangle((x, y, x + tw + 2 * pad, y + th + 2 * pad), fill=(255, 255, 255, 150))
    draw.text((x + pad - left, y + pad - top), text, font=font, fill=(20, 20, 120, 230))
    out = Image.alpha_composite(base, layer).convert("RGB")
    return out.convert("L") if im.mode == "L" else out


def variant(kind, im, fmt, rng):
    """-> (image, format) of one variant kind."""
    w, h = im.size
    if kind == "q60":
        return im, "JPEG", 60
    if kind == "q85":
        return im, "JPEG", 85
    if kind == "half":
        return im.resize((round(w / 2), round(h / 2)), Image.Resampling.BICUBIC), fmt, None
    if kind == "w320":
        s = 320 / max(w, h)
        return im.resize((round(w * s), round(h * s)), Image.Resampling.BILINEAR), fmt, None
    if kind == "crop5":
        return crop_each_side(im, 0.05), fmt, None
    if kind == "crop10":
        return crop_each_side(im, 0.10), fmt, None
    if kind == "wm":
        return watermark(im, rng), fmt, None
    if kind == "gray":
        return im.convert("L"), fmt, None
    if kind == "bright":
        return ImageEnhance.Brightness(im).enhance(1.08), fmt, None
    if kind == "conv":
        # PNG-born photos become JPEGs (q 85); JPEG-born become PNGs shrunk to CONV_PNG_MAX px
        # (a 480 px PNG of a photo is ~300 KB, too much for the repository)
        if fmt == "PNG":
            return im, "JPEG", 85
        s = CONV_PNG_MAX / max(w, h)
        return im.resize((round(w * s), round(h * s)), Image.Resampling.LANCZOS), "PNG", None
    raise ValueError(kind)


def kinds_for(index):
    return ALWAYS + IN_TURN[index % len(IN_TURN)]


def do_variants():
    os.makedirs(VARIANTS, exist_ok=True)
    for old in os.listdir(VARIANTS):
        os.remove(os.path.join(VARIANTS, old))
    rng = Random(43)
    for index, fname in enumerate(sorted(os.listdir(ORIGINALS))):
        name, _ = os.path.splitext(fname)
        path = os.path.join(ORIGINALS, fname)
        fmt = born_format(path)
        with Image.open(path) as im:
            im.load()
            for kind in kinds_for(index):
                if kind == "w320" and max(im.size) <= 320:
                    continue  # the PNG-born originals are already 320 px
                out_im, out_fmt, quality = variant(kind, im, fmt, rng)
                out = os.path.join(VARIANTS, "%s--%s.%s" % (name, kind, ext(out_fmt)))
                save(out_im, out, out_fmt, quality=quality or VARIANT_JPEG_QUALITY)


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def bomb_png(side):
    """A side x side 1-bit grayscale PNG of one colour, deflate level 9, written row by row so
    that building it never holds the raw image in memory."""
    row = b"\x00" + b"\x00" * ((side + 7) // 8)  # filter byte 0, all pixels black
    comp = zlib.compressobj(9)
    parts = []
    chunk = row * 1000
    for _ in range(side // 1000):
        parts.append(comp.compress(chunk))
    parts.append(comp.compress(row * (side % 1000)))
    parts.append(comp.flush())
    ihdr = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", b"".join(parts))
            + png_chunk(b"IEND", b""))


def do_hostile():
    os.makedirs(HOSTILE, exist_ok=True)
    with Image.open(os.path.join(ORIGINALS, "opencv-home.jpg")) as im:
        home = im.convert("RGB")
    with Image.open(os.path.join(ORIGINALS, "skimage-coffee.png")) as im:
        coffee = im.convert("RGB")
    small_home = home.resize((home.width // 2, home.height // 2), Image.Resampling.LANCZOS)

    buf = io.BytesIO()
    small_home.save(buf, "JPEG", quality=85)
    data = buf.getvalue()
    with open(os.path.join(HOSTILE, "truncated.jpg"), "wb") as f:
        f.write(data[: len(data) * 6 // 10])

    buf = io.BytesIO()
    coffee.resize((coffee.width // 2, coffee.height // 2), Image.Resampling.LANCZOS).save(buf, "PNG")
    data = buf.getvalue()
    with open(os.path.join(HOSTILE, "truncated.png"), "wb") as f:
        f.write(data[: len(data) // 2])

    bomb = bomb_png(20000)
    with open(os.path.join(HOSTILE, "bomb-20000x20000.png"), "wb") as f:
        f.write(bomb)
    with open(os.path.join(HOSTILE, "bomb-20000x20000-cut.png"), "wb") as f:
        f.write(bomb[:4096])  # the same header, the data stops after 4 KB

    small_home.convert("CMYK").save(os.path.join(HOSTILE, "cmyk.jpg"), "JPEG", quality=85)
    small_home.save(os.path.join(HOSTILE, "progressive.jpg"), "JPEG", quality=85, progressive=True)
    small_home.save(os.path.join(HOSTILE, "plain.webp"), "WEBP", quality=80, method=4)

    frames = []
    for share in (0.0, 0.05, 0.10):
        fr = crop_each_side(small_home, share).resize(small_home.size, Image.Resampling.BILINEAR)
        frames.append(fr.resize((small_home.width // 2, small_home.height // 2), Image.Resampling.LANCZOS))
    frames[0].save(os.path.join(HOSTILE, "animated.webp"), "WEBP", save_all=True,
                   append_images=frames[1:], duration=300, loop=0, quality=70, method=4)


def interlaced_png(im):
    """An 8-bit RGB PNG with Adam7 interlacing (Pillow writes none), filter 0 on every row."""
    im = im.convert("RGB")
    w, h = im.size
    px = im.tobytes()
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
              (0, 1, 1, 2)]
    raw = bytearray()
    for x0, y0, dx, dy in passes:
        if x0 >= w or y0 >= h:
            continue  # an empty pass has no rows at all, not even filter bytes
        for y in range(y0, h, dy):
            raw.append(0)
            for x in range(x0, w, dx):
                i = (y * w + x) * 3
                raw += px[i:i + 3]
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 1)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr)
            + png_chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + png_chunk(b"IEND", b""))


def do_formats():
    """The same photo (opencv-home at 160 x 120) in the forms a decoder meets: imagehash's
    answer for each is in dhash.tsv. It converts to L ignoring alpha and EXIF orientation."""
    os.makedirs(FORMATS, exist_ok=True)
    with Image.open(os.path.join(ORIGINALS, "opencv-home.jpg")) as im:
        home = im.convert("RGB").resize((160, 120), Image.Resampling.LANCZOS)
    out = lambda name: os.path.join(FORMATS, name)
    home.quantize(256, dither=Image.Dither.NONE).save(out("png-palette.png"), "PNG", optimize=True)
    alpha = Image.linear_gradient("L").resize(home.size).point(lambda v: 64 + v * 3 // 4)
    rgba = home.copy()
    rgba.putalpha(alpha)
    rgba.save(out("png-rgba.png"), "PNG", optimize=True)
    la = home.convert("L")
    la.putalpha(alpha)
    la.save(out("png-gray-alpha.png"), "PNG", optimize=True)
    home.convert("L").point(lambda v: v * 257, "I").convert("I;16").save(out("png-gray16.png"), "PNG")
    with open(out("png-interlaced.png"), "wb") as f:
        f.write(interlaced_png(home))
    home.save(out("jpeg-420.jpg"), "JPEG", quality=85, subsampling=2)
    home.save(out("jpeg-444.jpg"), "JPEG", quality=85, subsampling=0)
    home.convert("L").save(out("jpeg-gray.jpg"), "JPEG", quality=85)
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation: rotate 90 CW to display; imagehash does not apply it
    home.save(out("jpeg-exif-orientation6.jpg"), "JPEG", quality=85, exif=exif.tobytes())


def corpus_files():
    for folder in ("originals", "variants", "large", "hostile", "formats"):
        full = os.path.join(HERE, folder)
        if not os.path.isdir(full):
            continue
        for fname in sorted(os.listdir(full)):
            yield "%s/%s" % (folder, fname)


def hash_line(rel):
    import imagehash
    try:
        with Image.open(os.path.join(HERE, rel)) as im:
            h = str(imagehash.dhash(im))
            return "%s\t%s\t%d\t%d\t%s" % (rel, h, im.width, im.height, im.format)
    except Exception:  # the hostile ones that Pillow refuses: recorded, not hashed
        return None


HEADER = "path\tdhash\twidth\theight\tformat"


def computed_lines():
    lines = []
    for rel in corpus_files():
        line = hash_line(rel)
        if line is not None:
            lines.append(line)
    return lines


def do_hash():
    lines = computed_lines()
    with open(GOLDEN, "w") as f:
        f.write(HEADER + "\n" + "\n".join(lines) + "\n")
    print("%d hashes written to %s" % (len(lines), GOLDEN))


def do_check():
    with open(GOLDEN) as f:
        golden = [l.rstrip("\n") for l in f if l.strip()][1:]
    now = computed_lines()
    g, n = {l.split("\t")[0]: l for l in golden}, {l.split("\t")[0]: l for l in now}
    bad = 0
    for rel in sorted(set(g) | set(n)):
        if g.get(rel) != n.get(rel):
            bad += 1
            print("differs: golden %r now %r" % (g.get(rel), n.get(rel)))
    print("%d lines, %d differ" % (len(g), bad))
    return 1 if bad else 0


def read_golden():
    rows = []
    with open(GOLDEN) as f:
        for line in f.read().splitlines()[1:]:
            rel, h, w, hh, fmt = line.split("\t")
            rows.append((rel, int(h, 16), int(w), int(hh), fmt))
    return rows


def distance(a, b):
    return bin(a ^ b).count("1")


def percentile(sorted_values, p):
    # nearest rank
    if not sorted_values:
        return None
    k = max(1, -(-len(sorted_values) * p // 100))
    return sorted_values[int(k) - 1]


def median(values):
    v = sorted(values)
    n = len(v)
    m = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    return "%g" % m


def do_table():
    rows = read_golden()
    originals = {r[0].split("/")[1].rsplit(".", 1)[0]: r[1] for r in rows if r[0].startswith("originals/")}
    by_kind = {}
    same = []
    uncropped = []
    for rel, h, _, _, _ in rows:
        if not rel.startswith("variants/"):
            continue
        name, kind = rel.split("/")[1].rsplit(".", 1)[0].split("--")
        d = distance(originals[name], h)
        by_kind.setdefault(kind, []).append((d, name))
        same.append(d)
        if not kind.startswith("crop"):
            uncropped.append(d)
    names = sorted(originals)
    unrelated = sorted(distance(originals[a], originals[b])
                       for i, a in enumerate(names) for b in names[i + 1:])
    same.sort()
    print("### Original vs its variants, by kind (Hamming distance of 64 bits)\n")
    print("| kind | n | min | median | max | worst |")
    print("|---|---|---|---|---|---|")
    for kind in ALWAYS + ["w320", "crop5", "crop10", "wm", "gray", "bright"]:
        ds = sorted(by_kind.get(kind, []))
        if not ds:
            continue
        vals = [d for d, _ in ds]
        print("| %s | %d | %d | %s | %d | %s |" % (kind, len(vals), vals[0], median(vals), vals[-1], ds[-1][1]))
    uncropped.sort()
    print("| all but crops | %d | %d | %s | %d | |" % (len(uncropped), uncropped[0], median(uncropped),
                                                    uncropped[-1]))
    print("| all variants | %d | %d | %s | %d | |" % (len(same), same[0], median(same), same[-1]))
    print("\n### Unrelated originals (every pair of the %d originals)\n" % len(names))
    print("| pairs | min | 1st pct | 5th pct | median | max |")
    print("|---|---|---|---|---|---|")
    print("| %d | %d | %d | %d | %s | %d |" % (len(unrelated), unrelated[0], percentile(unrelated, 1),
                                             percentile(unrelated, 5), median(unrelated), unrelated[-1]))
    close = sorted((distance(originals[a], originals[b]), a, b)
                   for i, a in enumerate(names) for b in names[i + 1:])[:5]
    print("\nClosest unrelated pairs: " + "; ".join("%s / %s: %d" % (a, b, d) for d, a, b in close))
    print("\n### Folding threshold: fold when distance <= t\n")
    print("| t | variants missed (d > t) | of them not crops | unrelated pairs folded (d <= t) |")
    print("|---|---|---|---|")
    best = None
    for t in range(0, 21):
        missed = sum(1 for d in same if d > t)
        missed_uncropped = sum(1 for d in uncropped if d > t)
        folded = sum(1 for d in unrelated if d <= t)
        print("| %d | %d of %d | %d of %d | %d of %d |" % (t, missed, len(same), missed_uncropped,
                                                        len(uncropped), folded, len(unrelated)))
        if folded == 0:
            best = t
    print("\nLargest t folding no unrelated pair: %s" % best)


def do_scaled():
    rows = [r for r in read_golden() if r[4] == "JPEG" and not r[0].startswith("hostile/")]
    print("| scale | JPEGs | within 0 | within 2 | within 4 | max | median decoded width |")
    print("|---|---|---|---|---|---|---|")
    import imagehash
    # fixed scales, then "1/8 but keep the shorter side >= N px" (N = 32, 64)
    for denom in (2, 4, 8, "min32", "min64"):
        ds, widths, worst = [], [], []
        for rel, golden, w, h, _ in rows:
            if isinstance(denom, str):
                floor = int(denom[3:])
                denom_here = max([d for d in (1, 2, 4, 8) if min(w, h) // d >= floor] or [1])
            else:
                denom_here = denom
            with Image.open(os.path.join(HERE, rel)) as im:
                # Pillow picks the largest scale with w // size >= denom, so ask with floor
                im.draft(im.mode, (max(1, w // denom_here), max(1, h // denom_here)))
                assert im.size[0] == -(-w // denom_here), (rel, im.size, denom_here)
                widths.append(im.size[0])
                d = distance(int(str(imagehash.dhash(im)), 16), golden)
                ds.append(d)
                worst.append((d, rel, im.size))
        n = len(ds)
        label = ("1/8, shorter side >= %s px" % denom[3:]) if isinstance(denom, str) else "1/%d" % denom
        print("| %s | %d | %d | %d (%.0f %%) | %d (%.0f %%) | %d | %s |" % (
            label, n, sum(d == 0 for d in ds), sum(d <= 2 for d in ds), 100.0 * sum(d <= 2 for d in ds) / n,
            sum(d <= 4 for d in ds), 100.0 * sum(d <= 4 for d in ds) / n, max(ds), median(widths)))
        worst.sort(reverse=True)
        print("|  | worst: %s |" % "; ".join("%s %dx%d: %d" % (r, sz[0], sz[1], d) for d, r, sz in worst[:3]))


def main(argv):
    if len(argv) >= 2 and argv[1] == "import":
        do_import(argv[2])
    elif argv[1:] == ["variants"]:
        do_variants()
    elif argv[1:] == ["hostile"]:
        do_hostile()
    elif argv[1:] == ["formats"]:
        do_formats()
    elif argv[1:] == ["hash"]:
        do_hash()
    elif argv[1:] == ["--check"]:
        return do_check()
    elif argv[1:] == ["table"]:
        do_table()
    elif argv[1:] == ["scaled"]:
        do_scaled()
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
