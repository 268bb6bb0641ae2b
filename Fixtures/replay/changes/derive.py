#!/usr/bin/env python3
"""Derives the later answers of the `changes` replay sequence from the real sfbay capture.

Run from this folder: `python3 derive.py`. It writes `1/` ... `5/`, each an `index.json` and
the sfbay answer (`sfbay.json`); the littlerock and newyork answers stay the real captures. Every
change is to a row of the capture, as Craigslist would show it on a later poll (see README.md).
"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CAPTURE = os.path.join(HERE, "..", "..", "craigslist", "sfbay-sss-sapi-1.json")
SFBAY = ("https://sapi.craigslist.org/web/v8/postings/search/full?batch=1-0-360-1-0"
         "&searchPath=sss&cc=US&lang=en&query=ipad&min_price=20&max_price=400")
OTHERS = [
    ("../../../craigslist/littlerock-rea-sapi-1.json", "application/json", None,
     "https://sapi.craigslist.org/web/v8/postings/search/full?batch=100-0-360-1-0"
     "&searchPath=rea&cc=US&lang=en&query=land&srchType=T&max_price=150000&purveyor=owner"),
    ("../../../craigslist/newyork-apa-search-1.html", "text/html; charset=utf-8",
     "https://www.craigslist.org/search/subarea/mnh?cat=apa",
     "https://newyork.craigslist.org/search/mnh/apa?max_price=3500&sort=date"),
]
PRICED = 7930621188   # "apple ipad air 2", $100 in the capture: its price changes
GONE = 7915059614     # "★ Apple iPad mini 2 (32Gb) ★", $85: gone from 1 to 4, back in 5
REPOSTED = 7921078389  # "IPad 2", $45: posted again under a new id from 1 on
REPOST_ID = 7931800000


def title(row):
    return next(x for x in row[6:] if isinstance(x, str))


def answer(price, gone):
    """The capture with the priced row at `price`, the gone row left out if `gone`, and the
    repost on top (newest first, as sapi sorts by date)."""
    data = json.load(open(CAPTURE, encoding="utf-8"))
    decode, items = data["data"]["decode"], data["data"]["items"]
    first = decode["minPostingId"]
    rows = []
    for row in items:
        posting = first + row[0]
        if posting == GONE and gone:
            continue
        if posting == PRICED:
            row[3] = price
            row[:] = [x if not (isinstance(x, list) and x and x[0] == 10) else [10, f"${price}"]
                      for x in row]
        rows.append(row)
    original = next(r for r in items if first + r[0] == REPOSTED)
    repost = copy.deepcopy(original)
    repost[0] = REPOST_ID - first
    repost[1] = max(r[1] for r in items) + 600   # posted ten minutes after the newest row
    repost = [[13, "DerivedRepostOfIPad2xyz"] if isinstance(x, list) and x and x[0] == 13 else x
              for x in repost]
    repost = [x for x in repost if not (isinstance(x, int) and x < 0)]
    data["data"]["items"] = [repost] + rows
    return data


def write(step, price, gone):
    folder = os.path.join(HERE, str(step))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "sfbay.json"), "w", encoding="utf-8") as out:
        json.dump(answer(price, gone), out, ensure_ascii=False, separators=(",", ":"))
    entries = [{"file": "sfbay.json", "headers": {"content-type": "application/json"},
                "status": 200, "url": SFBAY}]
    for file, kind, final, url in OTHERS:
        entry = {"file": file, "headers": {"content-type": kind}, "status": 200, "url": url}
        if final:
            entry["finalURL"] = final
        entries.append(entry)
    with open(os.path.join(folder, "index.json"), "w", encoding="utf-8") as out:
        json.dump({"entries": entries}, out, indent=2, sort_keys=True)
        out.write("\n")


# step: (price of the priced row, is the gone row left out)
for step, (price, gone) in enumerate([(96, True), (90, True), (100, True), (90, True),
                                      (90, False)], start=1):
    write(step, price, gone)
