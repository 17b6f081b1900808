"""The demo collection's rich fields, in the Rijksmuseum detail endpoint's shape (used by make-demo-collection.py).

Makers are real, with their real life dates, sort names and home towns; descriptions are written in the style
of a museum label. A random generator of its own picks sizes, credit lines and rights, so that the objects'
ids, titles, makers, dates and images (drawn by make-demo-collection.py's generator) never move.
"""
import random

RNG = random.Random(1885)
# Alt texts and datestamps have a generator of their own, so that the fields above never move.
LATER = random.Random(1934)

PDM = "http://creativecommons.org/publicdomain/mark/1.0/"
CC_BY = "https://creativecommons.org/licenses/by/4.0/"
IN_COPYRIGHT = "http://rightsstatements.org/vocab/InC/1.0/"

# key: (sort name, born, died, role, place, kind)
MAKERS = {
    "cuyp": ("Cuyp, Aelbert", "1620-10-20", "1691-11-15", "painter", "Dordrecht", "painting"),
    "zarraga": ("Zárraga, Ángel", "1886-08-16", "1946-09-22", "painter", "Paris", "painting"),
    "ostade": ("Ostade, Adriaen van", "1610-12-10", "1685-05-02", "painter", "Haarlem", "panel"),
    "bol": ("Bol, Ferdinand", "1616-06-24", "1680-08-24", "painter", "Amsterdam", "painting"),
    "borch": ("Borch, Gerard ter", "1617", "1681-12-08", "painter", "Deventer", "painting"),
    "breitner": ("Breitner, George Hendrik", "1857-09-12", "1923-06-05", "painter", "Amsterdam", "painting"),
    "bernard": ("Bernard, Émile", "1868-04-28", "1941-04-16", "painter", "Pont-Aven", "painting"),
    "fokke": ("Fokke, Simon", "1712-07-30", "1784-10-13", "printmaker", "Amsterdam", "print"),
    "allemand": ("Allemand, Hector", "1809-03-04", "1886-04-28", "painter", "Lyon", "painting"),
    "hals": ("Hals, Frans", "1582", "1666-08-26", "painter", "Haarlem", "painting"),
    "hooch": ("Hooch, Pieter de", "1629-12-20", "1684", "painter", "Delft", "painting"),
    "israels": ("Israëls, Jozef", "1824-01-27", "1911-08-12", "painter", "The Hague", "painting"),
    "israels2": ("Israëls, Isaac", "1865-02-03", "1934-10-07", "painter", "Amsterdam", "painting"),
    "leyster": ("Leyster, Judith", "1609-07-28", "1660-02-10", "painter", "Haarlem", "painting"),
    "merian": ("Merian, Maria Sibylla", "1647-04-02", "1717-01-13", "draughtsman", "Amsterdam", "watercolour"),
    "mondriaan": ("Mondriaan, Piet", "1872-03-07", "1944-02-01", "painter", "Amsterdam", "painting"),
    "rembrandt": ("Rijn, Rembrandt van", "1606-07-15", "1669-10-04", "painter", "Amsterdam", "painting"),
    "ruisdael": ("Ruisdael, Jacob van", "1628", "1682-03-10", "painter", "Haarlem", "painting"),
    "ruysch": ("Ruysch, Rachel", "1664-06-03", "1750-08-12", "painter", "The Hague", "painting"),
    "steen": ("Steen, Jan", "1626", "1679-02-03", "painter", "Leiden", "painting"),
    "troost": ("Troost, Cornelis", "1696-10-08", "1750-03-07", "painter", "Amsterdam", "painting"),
    "vermeer": ("Vermeer, Johannes", "1632-10-31", "1675-12-15", "painter", "Delft", "painting"),
    "gogh": ("Gogh, Vincent van", "1853-03-30", "1890-07-29", "painter", None, "painting"),
    "avercamp": ("Avercamp, Hendrick", "1585-01-27", "1634-05-15", "painter", "Kampen", "panel"),
    "asselijn": ("Asselijn, Jan", "1610", "1652-10-01", "painter", "Amsterdam", "painting"),
    "hals2": ("Hals, Dirck", "1591-03-19", "1656-05-17", "painter", "Haarlem", "panel"),
    "witsen": ("Witsen, Willem", "1860-08-13", "1923-04-13", "painter", "Amsterdam", "painting"),
    "zz-hokusai": ("Katsushika Hokusai", "1760", "1849-05-10", "printmaker", "Edo", "woodcut"),
    "zz-hiroshige": ("Utagawa Hiroshige", "1797", "1858-10-12", "printmaker", "Edo", "woodcut"),
    "zz-repin": ("Repin, Ilya", "1844-08-05", "1930-09-29", "painter", "Saint Petersburg", "painting"),
    "zz-gyzis": ("Gyzis, Nikolaos", "1842-03-01", "1901-01-04", "painter", "Munich", "painting"),
    "zz-studio": ("Kierkegaard, Søren (studio of)", None, None, "draughtsman", "Copenhagen", "drawing"),
    "~anoniem": ("anoniem", None, None, None, None, "painting"),
}

# kind: (object type, materials, techniques, height range in cm)
KINDS = {
    "painting": ("painting", ["canvas", "oil paint"], [], (30, 180)),
    "panel": ("painting", ["panel", "oil paint"], [], (20, 90)),
    "print": ("print", ["paper"], ["etching", "engraving"], (15, 45)),
    "watercolour": ("drawing", ["vellum", "watercolour", "bodycolour"], ["brush"], (25, 40)),
    "woodcut": ("print", ["paper"], ["colour woodcut"], (22, 38)),
    "drawing": ("drawing", ["paper", "graphite"], ["drawing"], (15, 30)),
}

CREDIT_LINES = [
    "Purchased with the support of the Rembrandt Association",
    "Purchased with the support of the Rembrandt Association and the Mondrian Fund",
    "On loan from the City of Amsterdam (A. van der Hoop Bequest)",
    "Gift of Mr and Mrs Drucker-Fraser, Montreux",
    "Bequest of Jonkheer J.S.H. van de Poll, Amsterdam",
    "Transferred from the Koninklijk Kabinet van Zeldzaamheden",
    "Purchased with the support of the BankGiro Lottery",
    "Gift of the heirs of C. Hofstede de Groot, The Hague",
]

GOGH_PLACES = [(1885, "Nuenen"), (1887, "Paris"), (1888, "Arles"), (1889, "Saint-Rémy-de-Provence"),
               (1890, "Auvers-sur-Oise")]

# title: (label text, Iconclass descriptions)
LABELS = {
    "Portrait of a Woman": ("The sitter wears a plain black dress with a wide millstone collar, the height of "
                            "fashion among well-to-do burghers. The painter has lavished attention on the lace.",
                            ["portrait of a woman", "collar"]),
    "Portrait of a Man": ("A confident man in black turns towards us, one hand on his hip. The loose, rapid "
                          "brushwork of the cuffs contrasts with the carefully modelled face.",
                          ["portrait of a man", "gesture: hand on hip"]),
    "River Landscape with a Ferry": ("A ferry loaded with cattle and travellers crosses a broad, calm river "
                                     "under a high sky. The warm evening light unifies the scene.",
                                     ["river landscape", "ferry", "cattle"]),
    "Winter Landscape with Skaters": ("On the frozen river, rich and poor skate, play kolf and fall over. "
                                      "Countless small figures make the scene an inexhaustible picture of "
                                      "daily life in winter.", ["winter landscape", "skating", "kolf"]),
    "Still Life with Flowers": ("Flowers that bloom in different seasons are gathered in one bouquet: the "
                                "painting was composed from separate studies, not from a real vase.",
                                ["flowers in a vase", "still life"]),
    "View of Haarlem": ("Seen from the dunes, Haarlem lies low on the horizon, dominated by the Great Church. "
                        "Bands of sunlight and cloud shadow alternate across the bleaching fields.",
                        ["view of a city", "bleaching fields"]),
    "The Merry Family": ("Parents, grandparents and children sing, drink and smoke around the table. The note "
                         "pinned above the fireplace warns that as the old sing, so pipe the young.",
                         ["family meal", "proverbs"]),
    "A Woman Reading a Letter": ("A young woman stands absorbed in a letter by the window. Nothing else "
                                 "happens, yet the stillness and the light make the moment intense.",
                                 ["woman reading a letter", "interior"]),
    "Dunes near the Sea": "dunes",
    "Cows in a Meadow": ("Three cows rest in a flat polder meadow under a wide sky; a farmhand walks along "
                         "the ditch. Such modest scenes found eager buyers in the Dutch Republic.",
                         ["cows", "meadow"]),
    "Interior with a Mother": ("A mother sits by a cradle in a sunlit room, while a doorway opens onto a "
                               "courtyard beyond. The view through to a second space is the painter's "
                               "favourite device.", ["mother and child", "interior"]),
    "The Windmill": ("A windmill towers over the river, its sails dark against a luminous sky. The low "
                     "viewpoint makes the mill a monument.", ["windmill", "river landscape"]),
    "Study of a Head": ("A quick oil sketch of an old man's head, probably painted from life as a model for "
                        "larger history paintings.", ["old man", "head"]),
    "Ships in a Calm": ("Merchant ships lie becalmed off the coast, their reflections barely disturbed. "
                        "The silvery tones are typical of the tonal phase of Dutch marine painting.",
                        ["sailing ships", "calm sea"]),
    "Self-portrait": ("The painter looks at us in working clothes, his face lit from one side. He made "
                      "many self-portraits, studying his own features as if they were a stranger's.",
                      ["self-portrait of the artist"]),
    "Girl in a White Kimono": ("A young woman in a white kimono reclines on a couch before a folding screen. "
                               "Japanese prints and fabrics were a fashion among Amsterdam painters.",
                               ["woman", "kimono", "japonisme"]),
    "The Drawbridge": ("A drawbridge spans the canal; a cart waits to cross while a barge passes beneath. "
                       "The painter worked the thick paint with the palette knife.",
                       ["drawbridge", "canal"]),
    "Fishing Boats": ("Fishing pinks are drawn up on the beach and the catch is sold at once from the carts. "
                      "A strong wind drives the clouds inland.", ["fishing boats", "beach"]),
    "Evening on the Amstel": ("Dusk falls over the Amstel; lamps are lit in the houses along the river. The "
                              "painting was made in a single session.", ["river", "evening"]),
    "Flowers in a Vase": ("Tulips, roses and a fritillary spill from a stone niche. Insects and a snail remind "
                          "the viewer that beauty is fleeting.", ["flowers in a vase", "vanitas", "insects"]),
    "Metamorphosis of a Moth": ("The moth is shown at every stage of its life, from egg and caterpillar to "
                                "pupa and adult, on the plant it feeds on. Observed from life in Amsterdam and "
                                "Suriname.", ["metamorphosis", "moth", "plant"]),
    "Landscape with Cottages": ("Thatched cottages stand under tall oaks beside a sandy road. Light breaks "
                                "through the clouds onto a few travellers.", ["cottage", "trees", "road"]),
    "The Dam Square, Amsterdam": ("The new Town Hall rises behind the busy square, with the Weigh House and "
                                  "market stalls in front. Every building is recorded precisely.",
                                  ["town square", "Amsterdam", "town hall"]),
    "Caterpillars, Butterflies and Flower": ("Caterpillars, a chrysalis and butterflies gather round a "
                                             "single flowering stem, drawn with a naturalist's precision.",
                                             ["caterpillar", "butterfly", "flower"]),
    "Peasants by an Inn": ("Peasants drink, smoke and quarrel in front of a village inn. The painter made "
                           "such lively scenes of country life his speciality.", ["inn", "peasants"]),
    "Fine Wind, Clear Morning": ("Mount Fuji, flushed red by the early sun, rises above a sea of small "
                                 "clouds. Three colours suffice for one of the most famous prints ever made.",
                                 ["Mount Fuji", "mountain landscape"]),
    "Under the Wave off Kanagawa": ("A huge wave curls over three boats, with Mount Fuji small in the "
                                    "distance. The imported Prussian blue was new to Japanese printmakers.",
                                    ["wave", "boats", "Mount Fuji"]),
    "Plum Garden at Kameido": ("A plum tree's branches fill the foreground, framing visitors admiring the "
                               "blossom.", ["plum blossom", "garden"]),
    "Sudden Shower over Shin-Ōhashi": ("Figures hurry across a bridge in a sudden downpour, the rain drawn "
                                       "as fine dark lines.", ["rain", "bridge"]),
    "Travellers on the Tōkaidō": ("Porters and travellers make their way along the highway between Edo and "
                                  "Kyoto, past a station town.", ["travellers", "road"]),
}
LABELS["Dunes near the Sea"] = ("A sandy track winds through the dunes towards the sea, where a few figures "
                                "walk against the wind.", ["dunes", "sea"])


def dimensions(kind):
    low, high = KINDS[kind][3]
    height = round(RNG.uniform(low, high) * 2) / 2
    width = round(height * RNG.choice([0.75, 0.8, 1.25, 1.4]) * 2) / 2
    return [{"unit": "cm", "type": "height", "part": None, "value": f"{height:g}"},
            {"unit": "cm", "type": "width", "part": None, "value": f"{width:g}"}]


def rights(key):
    if key == "zarraga":
        return IN_COPYRIGHT
    roll = RNG.random()
    if key == "~~" and roll < 0.4:
        return IN_COPYRIGHT
    return CC_BY if roll < 0.13 else PDM


def alt_text(text, object_type):
    """What a museum writes for those who cannot see the image: the label's first scene, as a short line."""
    if not text:
        return None
    scene = text.split(". ")[0].rstrip(".")
    for cut in (", where ", ", while ", ", framing ", ", the "):
        if len(scene) > 80 and cut in scene:
            scene = scene.split(cut)[0]
    first, _, rest = scene.partition(" ")
    if first in ("A", "An", "The", "Two", "Three", "Four"):
        first = first.lower()
    return f"{object_type.capitalize()}: {first} {rest}."


def datestamp():
    """When the record was last changed, in UTC, as an API's modification date reads."""
    day = LATER.randrange(0, 700)
    month_days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    year, month = 2025, 0
    while day >= month_days[month]:
        day -= month_days[month]
        month += 1
        if month == 12:
            year, month = year + 1, 0
    return (f"{year}-{month + 1:02d}-{day + 1:02d}T{LATER.randrange(6, 20):02d}:{LATER.randrange(60):02d}:"
            f"{LATER.randrange(60):02d}Z")


def details(name, key, title, date, year):
    sort_name, born, died, role, place, kind = MAKERS.get(key, (None, None, None, None, None, "painting"))
    if key == "gogh":
        place = next(town for until, town in GOGH_PLACES if year <= until)
    object_type, materials, techniques, _ = KINDS[kind]
    text, subjects = LABELS.get(title, (None, []))
    roll = RNG.random()
    out = {
        "description": text if roll > 0.08 else None,
        "objectTypes": [object_type],
        "materials": materials,
        "techniques": techniques,
        "dating": {"presentingDate": date, "sortingDate": year, "period": year // 100 + 1,
                   "yearEarly": year - 5 if date.startswith("c.") else year,
                   "yearLate": year + 5 if date.startswith("c.") else year},
        "acquisition": {"method": "purchase",
                        "creditLine": RNG.choice(CREDIT_LINES) if RNG.random() < 0.7 else None},
        "productionPlaces": [place] if place else [],
        "classification": {"iconClassDescription": subjects},
        "principalMakers": [],
        "vitrineDemoRights": rights(key),
    }
    if RNG.random() < 0.2:
        height, width = (d["value"] for d in dimensions(kind))
        out["subTitle"] = f"h {height}cm × w {width}cm"
    else:
        out["dimensions"] = dimensions(kind)
    if name:
        out["principalMakers"] = [{"name": name, "unFixedName": sort_name, "dateOfBirth": born,
                                   "dateOfDeath": died, "placeOfBirth": None,
                                   "roles": [role] if role else [], "occupation": [role] if role else []}]
    if out["vitrineDemoRights"] == IN_COPYRIGHT:
        out["copyrightHolder"] = "c/o Pictoright Amsterdam"
    # Most labelled objects have an alt text, as at the Art Institute; every record a datestamp.
    if LATER.random() < 0.75 and out["description"]:
        out["vitrineDemoAltText"] = alt_text(out["description"], object_type)
    out["vitrineDemoModified"] = datestamp()
    return out
