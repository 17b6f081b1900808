#!/usr/bin/env python3
"""Writes the bundled demo collection: page files in the Rijksmuseum collection API's JSON shape.

The collection is invented (object numbers start with DEMO-, hosts end in .invalid), but it has the real
API's quirks: pages sorted by maker yet inconsistent across pages (page 1 ends with Simon Fokke, page 9
starts with Hector Allemand), a maker who reappears pages later, one object repeated across two pages,
null webImage with a headerImage full of nulls, image URLs with and without the =s0 suffix, http and
https links, anonymous and missing makers, and names with diacritics and non-Latin scripts.

Each object also carries the detail endpoint's fields (description, objectTypes, materials, techniques,
dimensions, acquisition.creditLine, productionPlaces, principalMakers with sort names and real life dates,
dating, Iconclass descriptions) and three fields of the demo's own, which the legacy API lacks:
vitrineDemoRights (mostly the Public Domain Mark, some CC BY 4.0, a few In Copyright), vitrineDemoAltText (an
alt text, for most described objects) and vitrineDemoModified (the record's datestamp). The details come from a
random generator of their own, so the objects' ids, titles, makers, dates and images do not move.

Run from the repository root: python3 Scripts/make-demo-collection.py
"""
import json
import os
import random

random.seed(1642)
OUT = "Sources/VitrineSources/Demo/pages"
PAGE_SIZE = 25

# (display name, surname key for the API's artist order, count, first year, last year)
MAKERS = [
    ("Aelbert Cuyp", "cuyp", 9, 1640, 1660),
    ("Ángel Zárraga", "zarraga", 5, 1908, 1930),
    ("Adriaen van Ostade", "ostade", 10, 1635, 1680),
    ("Ferdinand Bol", "bol", 8, 1645, 1669),
    ("Gerard ter Borch", "borch", 9, 1648, 1680),
    ("George Hendrik Breitner", "breitner", 11, 1885, 1915),
    ("Émile Bernard", "bernard", 6, 1887, 1905),
    ("Simon Fokke", "fokke", 14, 1740, 1784),
    ("Hector Allemand", "allemand", 6, 1840, 1880),
    ("Frans Hals", "hals", 14, 1620, 1664),
    ("Pieter de Hooch", "hooch", 8, 1655, 1680),
    ("Jozef Israëls", "israels", 9, 1860, 1905),
    ("Isaac Israëls", "israels2", 8, 1890, 1930),
    ("Judith Leyster", "leyster", 6, 1629, 1650),
    ("Maria Sibylla Merian", "merian", 16, 1679, 1717),
    ("Piet Mondriaan", "mondriaan", 7, 1900, 1920),
    ("Rembrandt van Rijn", "rembrandt", 30, 1626, 1669),
    ("Jacob van Ruisdael", "ruisdael", 13, 1646, 1682),
    ("Rachel Ruysch", "ruysch", 7, 1685, 1740),
    ("Jan Steen", "steen", 19, 1650, 1679),
    ("Cornelis Troost", "troost", 9, 1730, 1750),
    ("Johannes Vermeer", "vermeer", 5, 1655, 1672),
    ("Vincent van Gogh", "gogh", 18, 1881, 1890),
    ("Hendrick Avercamp", "avercamp", 9, 1608, 1634),
    ("Jan Asselijn", "asselijn", 5, 1640, 1652),
    ("Dirck Hals", "hals2", 4, 1620, 1656),
    ("Willem Witsen", "witsen", 7, 1885, 1922),
    ("葛飾北斎", "zz-hokusai", 9, 1820, 1849),
    ("歌川広重", "zz-hiroshige", 8, 1832, 1858),
    ("Илья Репин", "zz-repin", 5, 1870, 1910),
    ("Νικόλαος Γύζης", "zz-gyzis", 4, 1870, 1900),
    ("Søren Kierkegaard's Studio", "zz-studio", 2, 1840, 1850),
    ("anoniem", "~anoniem", 14, 1500, 1800),
    ("", "~~", 6, 1600, 1900),
]

SUBJECTS = [
    "Portrait of a Woman", "Portrait of a Man", "River Landscape with a Ferry", "Winter Landscape with Skaters",
    "Still Life with Flowers", "View of Haarlem", "The Merry Family", "A Woman Reading a Letter",
    "Dunes near the Sea", "Cows in a Meadow", "Interior with a Mother", "The Windmill", "Study of a Head",
    "Ships in a Calm", "Self-portrait", "Girl in a White Kimono", "The Drawbridge", "Fishing Boats",
    "Evening on the Amstel", "Flowers in a Vase", "Metamorphosis of a Moth", "Landscape with Cottages",
    "The Dam Square, Amsterdam", "Caterpillars, Butterflies and Flower", "Peasants by an Inn",
]
JAPANESE = ["Fine Wind, Clear Morning", "Under the Wave off Kanagawa", "Plum Garden at Kameido",
            "Sudden Shower over Shin-Ōhashi", "Travellers on the Tōkaidō"]
TRICKY = [
    "Kitchen Scene <with> a Cat & a Dog",
    "\"The Oyster Meal\" (so-called)",
    "Study: *light* on water, #3",
    "Portrait of [an unknown] sitter | sketch",
    "=HYPERLINK(\"http://example.invalid\")",
    "Line one\nline two of a long title",
]


def image(obj_no, rng):
    roll = rng.random()
    w, h = rng.choice([(4487, 5558), (3000, 2400), (2500, 3100), (5200, 4100), (1800, 2600)])
    base = f"https://images.vitrine-demo.invalid/{obj_no.lower()}"
    null_header = {"guid": None, "offsetPercentageX": 0, "offsetPercentageY": 0, "width": 0, "height": 0, "url": None}
    header = {"guid": f"h-{obj_no}", "offsetPercentageX": 0, "offsetPercentageY": 0, "width": 1920,
              "height": 460, "url": f"{base}-header=s0"}
    if roll < 0.08:   # no image at all
        return False, False, None, null_header
    if roll < 0.12:   # copyrighted: hasImage but not shown
        return True, False, None, null_header
    suffix = "" if roll < 0.2 else "=s0"   # older payloads lack the suffix
    web = {"guid": f"g-{obj_no}", "offsetPercentageX": 0, "offsetPercentageY": 0, "width": w, "height": h,
           "url": f"{base}{suffix}"}
    return True, True, web, header


from demo_details import details  # noqa: E402  (beside this script)


def records():
    rng = random.Random(7)
    out = []
    number = 1
    for name, key, count, first, last in MAKERS:
        for i in range(count):
            obj_no = f"DEMO-{number:04d}"
            number += 1
            subjects = JAPANESE if key.startswith("zz-h") else SUBJECTS
            title = subjects[(i * 7 + len(name)) % len(subjects)]
            if i == 2 and len(out) % 5 == 0:
                title = TRICKY[(len(out) // 5) % len(TRICKY)]
            year = rng.randint(first, last)
            date = f"c. {year}" if rng.random() < 0.2 else str(year)
            has_image, show_image, web, header = image(obj_no, rng)
            culture_path = "en/collection"
            scheme = "https" if number % 3 else "http"
            maker_field = name
            long_title = f"{title}, {name or 'anonymous'}, {date}"
            rec = {
                "links": {"self": f"{scheme}://www.vitrine-demo.invalid/api/en/collection/{obj_no}",
                          "web": f"{scheme}://www.vitrine-demo.invalid/{culture_path}/{obj_no}"},
                "id": f"en-{obj_no}",
                "objectNumber": obj_no,
                "title": title,
                "hasImage": has_image,
                "principalOrFirstMaker": maker_field,
                "longTitle": long_title,
                "showImage": show_image,
                "permitDownload": show_image,
                "webImage": web,
                "headerImage": header,
                "productionPlaces": [],
                "_key": key,
            }
            rec.update(details(name, key, title, date, year))
            out.append(rec)
    return out


def main():
    recs = records()
    allemand = [r for r in recs if r["_key"] == "allemand"]
    rembrandt_late = [r for r in recs if r["_key"] == "rembrandt"][-4:]
    rest = [r for r in recs if r["_key"] != "allemand" and r not in rembrandt_late]
    rest.sort(key=lambda r: (r["_key"], r["objectNumber"]))
    # Page 1 ends with Simon Fokke, as the real API's first page did.
    fokke_first = next(i for i, r in enumerate(rest) if r["_key"] == "fokke")
    before = rest[:fokke_first]
    page1 = before[:PAGE_SIZE - 1] + [rest[fokke_first]]
    remaining = before[PAGE_SIZE - 1:] + rest[fokke_first + 1:]
    pages = [page1]
    while remaining:
        pages.append(remaining[:PAGE_SIZE])
        remaining = remaining[PAGE_SIZE:]
    # Hector Allemand opens page 9, far from where the sort puts him; Rembrandt comes back on page 12.
    pages[8] = allemand + pages[8]
    pages[11] = rembrandt_late + pages[11]
    flat = [r for p in pages for r in p]
    pages = [flat[i:i + PAGE_SIZE] for i in range(0, len(flat), PAGE_SIZE)]
    # Unstable paging: the last object of page 3 shows up again at the top of page 4.
    pages[3] = [dict(pages[2][-1])] + pages[3]
    total = len(flat)
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        os.remove(os.path.join(OUT, name))
    for index, page in enumerate(pages, start=1):
        objects = [{k: v for k, v in r.items() if not k.startswith("_")} for r in page]
        body = {"elapsedMilliseconds": 0, "count": total, "countFacets": {"hasimage": total - 20, "ondisplay": 40},
                "artObjects": objects, "facets": []}
        with open(os.path.join(OUT, f"demo-page-{index:02d}.json"), "w", encoding="utf-8") as f:
            json.dump(body, f, ensure_ascii=False, indent=1)
            f.write("\n")
    print(f"{len(pages)} pages, {total} objects, {len(MAKERS)} makers")


if __name__ == "__main__":
    main()
