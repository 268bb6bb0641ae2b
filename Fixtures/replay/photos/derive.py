#!/usr/bin/env python3
"""Writes `index.json` of the `photos` replay set (README.md here).

Run from this folder: `python3 derive.py`. The two search answers are the real captures of
funda's and Pararius's Delft pages (`../../funda/latest.html`, `../../pararius/latest.html`),
unchanged. Each listing's photo address (one per listing on both pages) is answered by a photo
of the corpus (`../../photos/`): the five flats both pages list (the same address, price and
floor area) get one original each, funda's answered by the original and Pararius's by its
re-encoding at quality 85 (or its half-size copy); every other listing gets an original of its
own. No two originals are within 5 bits (the corpus's closest pair is 6 apart).
"""
import csv
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "..")
FUNDA = "https://www.funda.nl/zoeken/huur?selected_area=%5B%22delft%22%5D&sort=%22date_down%22"
PARARIUS = "https://www.pararius.nl/huurwoningen/delft"
# funda id -> Pararius id of the same flat (the same street address, price and floor area).
SAME = {
    "80876599": "2e760d4e",  # Vlamingstraat 33, 2750 EUR, 97 m2
    "44403344": "2e7212a2",  # Houttuinen 54-B, 2110 EUR, 47 m2
    "44404428": "d3dc8315",  # Mercuriusweg 117, 1600 EUR, 62 m2
    "44494977": "2118d9d1",  # Mercuriusweg 65, 1600 EUR, 62 m2
    "80866061": "fc477b2c",  # Martinus Nijhofflaan 442, 1995 EUR, 79 m2
}


def listings(site):
    with open(os.path.join(FIXTURES, site, "latest.listings.json"), encoding="utf-8") as f:
        return json.load(f)


def main():
    with open(os.path.join(FIXTURES, "photos", "dhash.tsv"), encoding="utf-8") as f:
        files = {row["path"] for row in csv.DictReader(f, delimiter="\t")}
    originals = sorted(p for p in files if p.startswith("originals/"))
    funda, pararius = listings("funda"), listings("pararius")
    entries = [
        {"url": FUNDA, "status": 200, "file": "../../funda/latest.html",
         "headers": {"content-type": "text/html; charset=utf-8"}},
        {"url": PARARIUS, "status": 200, "file": "../../pararius/latest.html",
         "headers": {"content-type": "text/html; charset=utf-8"}},
    ]
    photo = {}
    free = iter(originals)
    for listing in funda:
        photo[("funda", listing["id"])] = next(free)
    for funda_id, pararius_id in SAME.items():
        original = photo[("funda", funda_id)]
        stem, ext = os.path.splitext(os.path.basename(original))
        kind = "q85.jpg" if ext == ".jpg" else "half" + ext
        variant = "variants/%s--%s" % (stem, kind)
        assert variant in files, variant
        photo[("pararius", pararius_id)] = variant
    for listing in pararius:
        if ("pararius", listing["id"]) not in photo:
            photo[("pararius", listing["id"])] = next(free)
    for site, rows in (("funda", funda), ("pararius", pararius)):
        for listing in rows:
            path = photo[(site, listing["id"])]
            kind = "image/png" if path.endswith(".png") else "image/jpeg"
            for url in listing["imageURLs"][:2]:
                entries.append({"url": url, "status": 200, "file": "../../photos/" + path,
                                "headers": {"content-type": kind}})
    with open(os.path.join(HERE, "index.json"), "w", encoding="utf-8") as f:
        json.dump({"entries": entries}, f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    print("%d entries, %d photos" % (len(entries), len(entries) - 2))


main()
