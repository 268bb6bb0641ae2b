#!/usr/bin/env python3
"""Derives the `starred` replay sequence from two real Craigslist RSS captures.

Run from this folder: `python3 derive.py`. It writes `0/` ... `8/`, each an `index.json` with the
sfbay and seattle answers of `searches.yaml` here (see README.md). Every change is to an item of
the captures, as Craigslist would show it on a later poll; the files are otherwise the bytes of
the captures.
"""
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
CAPTURES = os.path.join(HERE, "..", "..", "craigslist")
SFBAY = "https://sfbay.craigslist.org/search/apa?sort=date&format=rss"
SEATTLE = "https://seattle.craigslist.org/search/apa?sort=date&format=rss"
STARRED = "6186664607"     # "Bright, Spacious Beautiful Victorian", $4300: starred
STARRED_REPOST = "6186799999"  # the same item posted again in step 6
WORDED = "6186664268"      # "CALL FALI Z~ MOVE NOW ...": its description changes in step 2
HIDDEN = "5332800255"      # "Wing Chun Kung Fu (Tacoma)" (seattle): hidden
HIDDEN_REPOST = "5366999999"  # the same item posted again from step 1 on


def item(feed, posting):
    """The span of the item whose URL ends in `posting`.html."""
    start = feed.index("<item rdf:about=", feed.index(f'{posting}.html">') - 80)
    end = feed.index("</item>", start) + len("</item>\n")
    return start, end


def drop(feed, posting):
    start, end = item(feed, posting)
    feed = feed[:start] + feed[end:]
    return re.sub(rf'  <rdf:li rdf:resource="[^"]*/{posting}\.html" />\n', "", feed)


def repost(feed, posting, new_id):
    """The item posted again under `new_id`, on top (newest first), same text and photo."""
    start, end = item(feed, posting)
    copy = feed[start:end].replace(f"/{posting}.html", f"/{new_id}.html")
    first = feed.index("<item rdf:about=")
    feed = feed[:first] + copy + feed[first:]
    seq = feed.index("<rdf:Seq>\n") + len("<rdf:Seq>\n")
    url = re.search(r'rdf:about="([^"]+)"', copy).group(1)
    return feed[:seq] + f'  <rdf:li rdf:resource="{url}" />\n' + feed[seq:]


def edit(feed, posting, old, new):
    start, end = item(feed, posting)
    text = feed[start:end]
    assert old in text, (posting, old)
    return feed[:start] + text.replace(old, new) + feed[end:]


def sfbay(step):
    feed = open(os.path.join(CAPTURES, "sfbay-apa-1.xml"), encoding="utf-8").read()
    if step >= 1:  # $4300 -> $4100 (title and dc:title)
        feed = edit(feed, STARRED, "&#x0024;4300", "&#x0024;4100")
    if step >= 2:  # the description reworded
        feed = edit(feed, STARRED, "Updated 3+ Bedroom, 2.5 Bath, Victorian home.",
                    "Fully renovated 3+ Bedroom, 2.5 Bath, Victorian home. Pets welcome.")
        feed = edit(feed, WORDED, "<description><![CDATA[",
                    "<description><![CDATA[Price reduced! ")
    if step >= 4:  # the starred listing gone from the answer
        if step >= 6:  # and posted again under a new id
            feed = repost(feed, STARRED, STARRED_REPOST)
        if step < 8:  # the old id back beside the new one in step 8
            feed = drop(feed, STARRED)
    return feed


def seattle(step):
    feed = open(os.path.join(CAPTURES, "seattle-act-1.xml"), encoding="utf-8").read()
    if step >= 1:
        feed = repost(feed, HIDDEN, HIDDEN_REPOST)
    return feed


def write(step):
    folder = os.path.join(HERE, str(step))
    os.makedirs(folder, exist_ok=True)
    entries = []
    for name, url, feed, capture in [("sfbay.xml", SFBAY, sfbay(step), "sfbay-apa-1.xml"),
                                     ("seattle.xml", SEATTLE, seattle(step), "seattle-act-1.xml")]:
        path = os.path.join(CAPTURES, capture)
        if feed == open(path, encoding="utf-8").read():
            name = os.path.join("..", "..", "..", "craigslist", capture)  # the capture as it is
        else:
            with open(os.path.join(folder, name), "w", encoding="utf-8") as out:
                out.write(feed)
        # Step 3: sfbay fails (a city that failed never makes a listing gone).
        status = 503 if step == 3 and url == SFBAY else 200
        entries.append({"file": name, "headers": {"content-type": "application/rss+xml"},
                        "status": status, "url": url})
    with open(os.path.join(folder, "index.json"), "w", encoding="utf-8") as out:
        json.dump({"entries": entries}, out, indent=2, sort_keys=True)
        out.write("\n")


for step in range(9):
    write(step)
