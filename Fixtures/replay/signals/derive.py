#!/usr/bin/env python3
"""Derives the `signals` replay from the real Kleinanzeigen answer in `Fixtures/kleinanzeigen/`.

Run from this folder: `python3 derive.py`. It writes `0/index.json` (the recorded answer, as it
is) and `1/` (the same answer with one planted scam on top: `1/kleinanzeigen-planted.html` and its
`index.json`). README.md here says exactly what the plant changes.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CAPTURE = os.path.join(HERE, "..", "..", "kleinanzeigen", "kleinanzeigen-duesseldorf-wohnung-1.html")
URL = "https://www.kleinanzeigen.de/s-immobilien/duesseldorf/anzeige:angebote/wohnung/k0c195l2068r5"
COPIED = "3465876892"  # "Vollständig renovierte 2,5 Zimmer Wohnung in Oberbilk", 940 €, 50 m²
PLANTED = "3470000001"
TITLE = "Vollständig renovierte 2,5 Zimmer Wohnung in Oberbilk"
NEW_TITLE = "Helle 2,5 Zimmer Wohnung in Oberbilk, sofort frei"
DESCRIPTION_START = '<p class="aditem-main--middle--description">'
NEW_DESCRIPTION = (
    "Ich bin im Ausland und kann die Wohnung leider nicht zeigen. Kaution vorab, "
    "danach schicke ich Ihnen die Schlüssel per Post."
)


def entry(file):
    return {
        "file": file,
        "headers": {"content-type": "text/html; charset=utf-8"},
        "status": 200,
        "url": URL,
    }


def write(folder, file):
    os.makedirs(os.path.join(HERE, folder), exist_ok=True)
    with open(os.path.join(HERE, folder, "index.json"), "w", encoding="utf-8") as out:
        json.dump({"entries": [entry(file)]}, out, indent=1, ensure_ascii=False)
        out.write("\n")


def planted(page):
    """The card of COPIED, copied on top of the list with the changes README.md names."""
    at = page.index(f'data-adid="{COPIED}"')
    start = page.rindex("<li", 0, at)
    end = page.index("</li>", at) + len("</li>")
    card = page[start:end].replace(COPIED, PLANTED).replace(TITLE, NEW_TITLE)
    text = card.index(DESCRIPTION_START) + len(DESCRIPTION_START)
    card = card[:text] + NEW_DESCRIPTION + card[card.index("</p>", text):]
    assert card.count("940 €") == 1
    card = card.replace("940 €", "390 €")
    assert card.count("40227 Eller") == 1
    card = card.replace("40227 Eller", "50667 Köln")
    first = page.index('<li class="ad-listitem')
    return page[:first] + card + "\n" + page[first:]


def main():
    with open(CAPTURE, encoding="utf-8") as source:
        page = source.read()
    write("0", "../../../kleinanzeigen/kleinanzeigen-duesseldorf-wohnung-1.html")
    os.makedirs(os.path.join(HERE, "1"), exist_ok=True)
    with open(os.path.join(HERE, "1", "kleinanzeigen-planted.html"), "w", encoding="utf-8") as out:
        out.write(planted(page))
    write("1", "kleinanzeigen-planted.html")


if __name__ == "__main__":
    main()
