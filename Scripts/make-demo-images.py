#!/usr/bin/env python3
"""Writes the bundled demo collection's pictures: one small SVG per object with an image, so that the demo
gallery (`swift run vitrine export`) shows pictures offline.

Each picture is a little painting in the spirit of its title (a landscape, a portrait, a still life, a sea, a
print), in colours drawn from its maker's name, at the aspect ratio its page's `webImage` gives, 480 pixels
wide. They are written, one per line (`DEMO-0001<TAB><svg …>`), to Sources/VitrineSources/Demo/images/, which
the package embeds in the binary as it embeds the pages.

Run from the repository root, after Scripts/make-demo-collection.py: python3 Scripts/make-demo-images.py
"""
import colorsys
import hashlib
import json
import os
import random

PAGES = "Sources/VitrineSources/Demo/pages"
OUT = "Sources/VitrineSources/Demo/images/demo-images.tsv"
WIDTH = 480


def palette(maker):
    """Five colours from the maker's name: a hue of their own, light to dark."""
    digest = hashlib.sha256(maker.encode("utf-8")).digest()
    hue = digest[0] / 255
    shift = (digest[1] / 255 - 0.5) * 0.25
    colours = []
    for lightness, saturation, offset in [(0.86, 0.35, 0), (0.68, 0.45, shift), (0.5, 0.5, 0.5),
                                          (0.34, 0.45, shift), (0.18, 0.35, 0)]:
        r, g, b = colorsys.hls_to_rgb((hue + offset) % 1, lightness, saturation)
        colours.append("#%02x%02x%02x" % (int(r * 255), int(g * 255), int(b * 255)))
    return colours


def kind(title):
    text = title.lower()
    if any(word in text for word in ["portrait", "head", "self", "girl", "woman", "man", "sitter"]):
        return "portrait"
    if any(word in text for word in ["flower", "still", "vase", "oyster", "kitchen", "butterfl", "moth",
                                     "caterpillar"]):
        return "still"
    if any(word in text for word in ["ship", "sea", "boat", "wave", "calm", "amstel", "ferry", "river"]):
        return "sea"
    return "landscape"


def picture(number, title, maker, width, height):
    rng = random.Random(number)
    h = round(WIDTH * height / width)
    w = WIDTH
    light, mid, accent, dark, deep = palette(maker or "anonymous")
    shapes = []
    style = kind(title)
    if style == "portrait":
        shapes.append(f'<rect width="{w}" height="{h}" fill="{deep}"/>')
        cx, cy = w // 2 + rng.randint(-30, 30), int(h * 0.42)
        shapes.append(f'<ellipse cx="{cx}" cy="{h}" rx="{int(w * 0.38)}" ry="{int(h * 0.36)}" fill="{dark}"/>')
        shapes.append(f'<ellipse cx="{cx}" cy="{cy}" rx="{int(w * 0.16)}" ry="{int(w * 0.21)}" fill="{light}"/>')
        shapes.append(f'<path d="M{cx - int(w * 0.17)} {cy - 10}q{int(w * 0.17)} -{int(w * 0.3)} {int(w * 0.34)} 0" '
                      f'fill="{accent}"/>')
    elif style == "still":
        table = int(h * 0.68)
        shapes.append(f'<rect width="{w}" height="{h}" fill="{dark}"/>')
        shapes.append(f'<rect y="{table}" width="{w}" height="{h - table}" fill="{deep}"/>')
        vase = w // 2 + rng.randint(-40, 40)
        shapes.append(f'<rect x="{vase - 34}" y="{table - 110}" width="68" height="112" rx="26" fill="{mid}"/>')
        for _ in range(7):
            x, y = vase + rng.randint(-110, 110), table - 140 - rng.randint(0, int(h * 0.35))
            colour = rng.choice([light, accent, mid])
            shapes.append(f'<circle cx="{x}" cy="{max(y, 30)}" r="{rng.randint(18, 38)}" fill="{colour}"/>')
    elif style == "sea":
        horizon = int(h * rng.uniform(0.45, 0.62))
        shapes.append(f'<rect width="{w}" height="{h}" fill="{light}"/>')
        shapes.append(f'<rect y="{horizon}" width="{w}" height="{h - horizon}" fill="{dark}"/>')
        for _ in range(rng.randint(1, 3)):
            x = rng.randint(40, w - 120)
            shapes.append(f'<path d="M{x} {horizon + 6}h90l-14 16h-62z" fill="{deep}"/>')
            shapes.append(f'<path d="M{x + 44} {horizon + 4}v-{rng.randint(70, 120)}l40 60z" fill="{mid}"/>')
        shapes.append(f'<circle cx="{rng.randint(60, w - 60)}" cy="{int(horizon * 0.35)}" r="26" fill="{accent}"/>')
    else:
        horizon = int(h * rng.uniform(0.5, 0.66))
        shapes.append(f'<rect width="{w}" height="{h}" fill="{light}"/>')
        shapes.append(f'<circle cx="{rng.randint(60, w - 60)}" cy="{int(horizon * 0.4)}" r="{rng.randint(24, 40)}" '
                      f'fill="{accent}"/>')
        shapes.append(f'<path d="M0 {horizon}q{w // 4} -{rng.randint(30, 90)} {w // 2} 0t{w // 2} 0V{h}H0z" '
                      f'fill="{mid}"/>')
        shapes.append(f'<rect y="{horizon + 30}" width="{w}" height="{h - horizon - 30}" fill="{dark}"/>')
    label = f"{title}, {maker or 'anonymous'}".replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" '
            f'aria-label="{label.replace(chr(34), "&quot;").replace(chr(10), " ")}">' + "".join(shapes) + "</svg>")


def main():
    lines = []
    seen = set()
    for name in sorted(os.listdir(PAGES)):
        with open(os.path.join(PAGES, name), encoding="utf-8") as page:
            for record in json.load(page)["artObjects"]:
                web = record.get("webImage")
                number = record["objectNumber"]
                if not web or not web.get("url") or number in seen:
                    continue
                seen.add(number)
                svg = picture(number, record["title"], record["principalOrFirstMaker"], web["width"], web["height"])
                lines.append(f"{number}\t{svg}")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as out:
        out.write("\n".join(sorted(lines)) + "\n")
    sizes = [len(line) for line in lines]
    print(f"wrote {len(lines)} pictures to {OUT}: {sum(sizes) // 1024} KB, {min(sizes)}–{max(sizes)} bytes each")


if __name__ == "__main__":
    main()
