#!/usr/bin/env python3
"""Opens an exported gallery from file:// in headless Chromium and checks what a visitor sees.

usage: check_site.py OUTPUT_FOLDER SCREENSHOT_FOLDER

Checks: no console errors (images on hosts that cannot be reached are expected offline and shown as
placeholders, so failed image loads are the one kind of message allowed); sections and cards visible; the
pictures the export wrote beside the gallery (the demo's) load and show; every <img> has alt text; search narrows the cards; a detail page shows its large image and prev/next links; dark
mode applies; with JavaScript off the gallery still browses and the search box is absent; axe-core finds no
accessibility violation on the index, a letter page (if any), an artist page, a detail page, the data page and the
browse pages (types, periods and a page of each), in light and dark; the browse pages together show every object
once. Saves screenshots (light, dark, narrow phone width, a detail page) and axe-report.json. Exits
non-zero with one line per failure.
"""
import json
import pathlib
import re
import sys
import time

import axe_core_python

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

LIGHT_BACKGROUND = "rgb(250, 249, 246)"
DARK_BACKGROUND = "rgb(20, 19, 18)"
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def browser(javascript=True, width=1280, height=900):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--allow-file-access-from-files",
                     # Offline by design: nothing leaves the machine, image hosts fail fast.
                     "--host-resolver-rules=MAP * ~NOTFOUND"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def console_errors(driver):
    errors = []
    for entry in driver.get_log("browser"):
        if entry["level"] != "SEVERE":
            continue
        message = entry["message"]
        # An image on a host that cannot be reached (the demo's .invalid hosts, any museum offline).
        if "Failed to load resource" in message and message.startswith("http"):
            continue
        errors.append(message)
    return errors


def visible(driver, selector):
    return [element for element in driver.find_elements(By.CSS_SELECTOR, selector) if element.is_displayed()]


def settled(driver):
    """Waits until the images in view have loaded (or failed) and their fade-in has finished."""
    WebDriverWait(driver, 10).until(lambda d: d.execute_script(
        "const inView = [...document.images].filter(i => { const r = i.getBoundingClientRect();"
        " return r.bottom > 0 && r.top < innerHeight; });"
        " return inView.every(i => i.complete) &&"
        " document.getAnimations().every(a => a.playState !== 'running');"))


def shown_pictures(driver):
    """Images in view that loaded from the export's own folder, the site's logo aside."""
    return driver.execute_script(
        "return [...document.images].filter(i => { const r = i.getBoundingClientRect();"
        " return r.bottom > 0 && r.top < innerHeight && i.complete && i.naturalWidth > 0"
        " && i.src.startsWith('file:') && !i.classList.contains('logo'); }).length")


AXE_SOURCE = (pathlib.Path(axe_core_python.__file__).parent / "axe.min.js").read_text()


def axe_violations(driver):
    """axe-core's violations on the page shown: each rule's id, impact, help text and up to three of its nodes."""
    driver.execute_script(AXE_SOURCE)
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        " axe.run(document, {resultTypes: ['violations']})"
        "  .then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
        "    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))))"
        "  .catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));")


def accessibility(site, shots):
    """Runs axe-core on every kind of page in light and dark, and writes what it found to axe-report.json."""
    pages = {"index": site / "index.html", "data": site / "data.html"}
    for kind, name in (("types", "types.html"), ("periods", "periods.html")):
        if (site / name).is_file():
            pages[kind] = site / name
    for kind, folder in (("letter", "letters"), ("artist", "artists"), ("object", "objects"), ("type", "types"),
                         ("period", "periods")):
        found = sorted((site / folder).glob("*.html")) if (site / folder).is_dir() else []
        # A page of several, where there is one: its pagers are landmarks too.
        found = [page for page in found if "--2." in page.name] or found
        if found:
            pages[kind] = found[len(found) // 2]
    report = []
    driver = browser()
    driver.set_script_timeout(60)
    try:
        for scheme in ("light", "dark"):
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                   {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            for kind, path in pages.items():
                driver.get(path.as_uri())
                WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
                settled(driver)
                violations = axe_violations(driver)
                report.append({"page": str(path.relative_to(site)), "kind": kind, "scheme": scheme,
                               "violations": violations})
                for violation in violations:
                    check(False, f"axe: {kind} page ({scheme}): {violation['id']} ({violation['impact']}): "
                                 f"{violation['help']}: {', '.join(violation['nodes'])}")
        # A page by type, as a visitor sees it.
        groups = sorted((site / "types").glob("*.html")) if (site / "types").is_dir() else []
        if groups:
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
            driver.get(groups[0].as_uri())
            settled(driver)
            driver.save_screenshot(str(shots / "browse-type.png"))
    finally:
        driver.quit()
    (shots / "axe-report.json").write_text(json.dumps(report, indent=2) + "\n")
    checked = len(report)
    total = sum(len(entry["violations"]) for entry in report)
    print(f"browser check: axe-core checked {checked} pages ({', '.join(pages)}; light and dark): "
          f"{total} violations")


def background(driver):
    return driver.execute_script("return getComputedStyle(document.body).backgroundColor")


def main():
    site = pathlib.Path(sys.argv[1]).resolve()
    shots = pathlib.Path(sys.argv[2]).resolve()
    shots.mkdir(parents=True, exist_ok=True)
    index = (site / "index.html").as_uri()

    driver = browser()
    try:
        driver.get(index)
        WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
        sections = visible(driver, "section.maker[data-artist]")
        cards = visible(driver, "li.card[data-object-id]")
        check(len(sections) > 0, "no artist section is visible on the index")
        check(len(cards) > 0, "no card is visible on the index")
        for image in driver.find_elements(By.TAG_NAME, "img"):
            # A logo beside the site's name is decorative: its empty alt text is the right one.
            decorative = "logo" in (image.get_attribute("class") or "").split()
            check(decorative or (image.get_attribute("alt") or "").strip() != "",
                  f"an image has no alt text: {image.get_attribute('src')}")
        check(driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en", "no lang attribute")
        check(len(driver.find_elements(By.TAG_NAME, "main")) == 1, "no single <main> landmark")
        check(background(driver) == LIGHT_BACKGROUND, f"light background is {background(driver)}")
        # Broken images give way to the placeholder.
        driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        time.sleep(0.5)
        driver.execute_script("window.scrollTo(0, 0)")
        settled(driver)
        bundled = (site / "images").is_dir()
        if bundled:
            check(shown_pictures(driver) >= 4, f"only {shown_pictures(driver)} pictures show on the index")
        driver.save_screenshot(str(shots / "gallery-light.png"))
        # Far down the index, the letter bar is still at the top, and a link leads back up.
        driver.execute_script("window.scrollTo(0, document.body.scrollHeight / 2)")
        top = driver.execute_script("return document.querySelector('nav.letters').getBoundingClientRect().top")
        check(driver.execute_script("return window.scrollY") > 500 and abs(top) < 1,
              f"the letter bar does not stay at the top (it is at {top} px)")
        check(len(driver.find_elements(By.CSS_SELECTOR, ".letter-group a[href='#top']")) > 0, "no way back to the top")
        driver.execute_script("window.scrollTo(0, 0)")

        # Search narrows the cards.
        form = driver.find_element(By.CSS_SELECTOR, "form.search")
        WebDriverWait(driver, 10).until(lambda d: form.is_displayed())
        box = driver.find_element(By.ID, "search-box")
        first_title = cards[0].find_element(By.CSS_SELECTOR, ".title").text
        word = max(first_title.split(), key=len)
        box.send_keys(word)
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "results").is_displayed())
        found = visible(driver, "#results li.card")
        check(0 < len(found) < len(cards), f"searching {word!r} shows {len(found)} of {len(cards)} cards")
        check(all(word.lower() in card.text.lower() for card in found), f"a result for {word!r} does not match it")
        check(not driver.find_element(By.ID, "browse").is_displayed(), "the browse list stays visible during a search")
        driver.save_screenshot(str(shots / "gallery-search.png"))
        box.clear()
        # Search in every script, by object number and by year; "Nothing found" when nothing is. On the demo:
        # Søren Kierkegaard's Studio (letters that do not decompose), 葛飾北斎 (Japanese, in pairs of characters),
        # Илья Репин (Cyrillic), Νικόλαος Γύζης (Greek, accents and a final sigma folded).
        def shows(query, test, label, screenshot=None):
            box.clear()
            box.send_keys(query)
            try:
                WebDriverWait(driver, 10, ignored_exceptions=[StaleElementReferenceException]).until(
                    lambda d: test([card.text.lower() for card in visible(d, "#results li.card")]))
                if screenshot:
                    settled(driver)
                    driver.save_screenshot(str(shots / screenshot))
            except TimeoutException:
                check(False, f"searching {query!r} does not show {label}")
            box.clear()
            box.send_keys(" ")
            WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "browse").is_displayed())
        if bundled:
            for query, maker in (("soren", "søren"), ("SØREN", "søren"), ("北斎", "葛飾北斎"), ("葛飾", "葛飾北斎"),
                                 ("репин", "илья репин"), ("РЕПИН", "илья репин"), ("γυζης", "νικόλαος γύζης"),
                                 ("ΓΎΖΗΣ", "νικόλαος γύζης")):
                shows(query, lambda cards, maker=maker: cards and all(maker in card for card in cards),
                      f"only {maker}'s objects", "search-japanese.png" if query == "北斎" else None)
            shows("DEMO-0074", lambda cards: len(cards) == 1 and "the dam square, amsterdam" in cards[0],
                  "the one object numbered DEMO-0074")
            shows("demo 0074", lambda cards: len(cards) == 1, "the object numbered DEMO-0074, typed as two words")
            shows("1851", lambda cards: "the dam square, amsterdam" in " ".join(cards), "the objects of 1851")
        box.clear()
        box.send_keys("qqqzzx")
        try:
            WebDriverWait(driver, 10).until(
                lambda d: d.find_element(By.CSS_SELECTOR, ".search-status").text == "Nothing found.")
        except TimeoutException:
            check(False, "searching 'qqqzzx' does not say Nothing found.")
        box.clear()
        box.send_keys(" ")
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "browse").is_displayed())

        # Dark mode.
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        check(background(driver) == DARK_BACKGROUND, f"dark background is {background(driver)}")
        settled(driver)
        driver.save_screenshot(str(shots / "gallery-dark.png"))
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

        # A detail page: large image, prev/next within the section.
        cards[1].find_element(By.CSS_SELECTOR, "a.card-link").click()
        WebDriverWait(driver, 10).until(lambda d: "/objects/" in d.current_url)
        # Offline the image cannot load: its frame shows the placeholder; the <img> must still be there.
        large = driver.find_elements(By.CSS_SELECTOR, ".object .large img")
        check(len(large) == 1 and len(visible(driver, ".object .large")) == 1, "the detail page has no large image")
        if large:
            check(int(large[0].get_attribute("width") or 0) >= 400, "the large image is not large")
            check((large[0].get_attribute("alt") or "") != "", "the large image has no alt text")
        check(driver.find_element(By.TAG_NAME, "h1").text != "", "the detail page has no title")
        previous = visible(driver, "a[rel=prev]")
        following = visible(driver, "a[rel=next]")
        check(len(previous) == 1 and len(following) == 1, "the second object of a section lacks prev or next")
        settled(driver)
        if bundled:
            check(shown_pictures(driver) == 1, "the detail page's picture does not show")
        driver.save_screenshot(str(shots / "object-light.png"))
        if following:
            here = driver.current_url
            following[0].click()
            WebDriverWait(driver, 10).until(lambda d: d.current_url != here)
            back = visible(driver, "a[rel=prev]")
            check(back and back[0].get_attribute("href") == here, "next, then prev, does not lead back")
        for message in console_errors(driver):
            failures.append(f"console error: {message}")
    finally:
        driver.quit()

    # A phone (headless windows have a minimum width: the viewport is emulated).
    driver = browser()
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        driver.get(index)
        check(len(visible(driver, "li.card")) > 0, "no card is visible at phone width")
        width = driver.execute_script("return document.documentElement.scrollWidth")
        check(width <= 390, f"the page scrolls sideways at phone width ({width} px)")
        settled(driver)
        driver.save_screenshot(str(shots / "gallery-narrow.png"))
    finally:
        driver.quit()

    # JavaScript off: everything browses, the search box is absent.
    driver = browser(javascript=False)
    try:
        driver.get(index)
        check(len(visible(driver, "li.card")) > 0, "with JavaScript off no card is visible")
        check(not driver.find_element(By.CSS_SELECTOR, "form.search").is_displayed(),
              "with JavaScript off the search box shows")
    finally:
        driver.quit()

    accessibility(site, shots)
    if (site / "periods").is_dir():
        shown = [identifier for page in sorted((site / "periods").glob("*.html"))
                 for identifier in re.findall(r'data-object-id="([^"]*)"', page.read_text())]
        objects = len(list((site / "objects").glob("*.html")))
        check(len(shown) == objects and len(set(shown)) == len(shown),
              f"the period pages show {len(shown)} cards ({len(set(shown))} objects) of {objects} objects")

    for failure in failures:
        print(f"browser check: {failure}", file=sys.stderr)
    print(f"browser check: {'FAILED' if failures else 'passed'}; screenshots in {shots}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
