#!/usr/bin/python3
"""The gallery's browser timings on a large library (issue 13's targets): an album's
first screen of thumbnails (<= 1 s) and a jump to its oldest month through the
scrubber (<= 300 ms), in headless chromium through selenium, measured with the
Performance API (resource timings of the thumbnails on screen), with the browser's
cache off so every run fetches what it shows.

Usage: gallery_browser_bench.py PHOTOFILER LIBRARY [ALBUM] [RUNS]
LIBRARY is one `photofiler-bench --make-library` made: its roll files are not
pictures, so each asset gets a thumbnail file here first (hard links to two small
JPEGs, as many as the catalog has hashes). Prints a Markdown table on stdout.
"""
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

# The tiles of `section` (or of the whole page) that are on screen, once every one of
# them shows its thumbnail: their image URLs; null until then.
ON_SCREEN = """
const scope = arguments[0] ? document.querySelector('section[data-month="' + arguments[0] + '"]') : document;
if (!scope) return null;
const tiles = [...scope.querySelectorAll('[data-asset-id]')].filter((tile) => {
  const box = tile.getBoundingClientRect();
  return box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth;
});
if (tiles.length === 0) return null;
const images = tiles.map((tile) => tile.querySelector('img'));
return images.every((image) => image.complete && image.naturalWidth > 0) ? images.map((image) => image.src) : null;
"""
# The latest responseEnd of those URLs, and how many of them have a resource timing.
FINISHED = """
const wanted = new Set(arguments[0]);
const entries = performance.getEntriesByType('resource').filter((entry) => wanted.has(entry.name));
return [Math.max(...entries.map((entry) => entry.responseEnd)), new Set(entries.map((entry) => entry.name)).size];
"""


def thumbnails_for_every_asset(library, work):
    """Two small JPEGs, hard-linked as the 256 px thumbnail of every content hash."""
    sources = []
    for index in range(2):
        path = os.path.join(work, f"thumb{index}.jpg")
        subprocess.run(["vips", "gaussnoise", path + "[Q=82,strip]", "256", "192", "--mean", str(100 + 50 * index),
                        "--sigma", "40"], check=True)
        sources.append(path)
    catalog = sqlite3.connect(f"file:{library}/.photofiler/catalog.sqlite?mode=ro", uri=True)
    hashes = [row[0] for row in catalog.execute("SELECT hash FROM assets")]
    catalog.close()
    folder = os.path.join(library, ".photofiler", "thumbnails")
    for index, content in enumerate(hashes):
        shard = os.path.join(folder, content[:2])
        os.makedirs(shard, exist_ok=True)
        target = os.path.join(shard, content + "-256.jpg")
        if not os.path.exists(target):
            os.link(sources[index % 2], target)  # two sources: each well under ext4's 65,000 links
    return len(hashes)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--lang=en-US"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    return driver


def finished(driver, urls, since):
    end, timed = driver.execute_script(FINISHED, urls)
    if timed != len(set(urls)):
        raise AssertionError(f"only {timed} of {len(set(urls))} thumbnails on screen have a resource timing")
    return end - since


def main():
    photofiler, library = sys.argv[1], sys.argv[2]
    album = sys.argv[3] if len(sys.argv) > 3 else "QQ"
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    work = tempfile.mkdtemp(prefix="photofiler-browser-bench-")
    count = thumbnails_for_every_asset(library, work)
    server = subprocess.Popen([photofiler, "serve", "--library", library, "--listen", "127.0.0.1:0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    driver = None
    try:
        base = server.stdout.readline().strip().rstrip("/")
        if not base.startswith("http://"):
            raise AssertionError("photofiler serve printed no address")
        driver = browser()
        first_screens, jumps, oldest = [], [], None
        for _ in range(runs):
            driver.get(base + "/albums/" + album)
            urls = WebDriverWait(driver, 60, poll_frequency=0.02).until(lambda d: d.execute_script(ON_SCREEN, None))
            first_screens.append(finished(driver, urls, 0))  # from the navigation's start
            oldest, since = driver.execute_script(
                "performance.setResourceTimingBufferSize(100000); performance.clearResourceTimings();"
                "const links = document.querySelectorAll('.scrubber a'); const last = links[links.length - 1];"
                "const since = performance.now(); last.click(); return [last.dataset.month, since];")
            urls = WebDriverWait(driver, 60, poll_frequency=0.02).until(lambda d: d.execute_script(ON_SCREEN, oldest))
            jumps.append(finished(driver, urls, since))
        months = driver.execute_script("return document.querySelectorAll('.scrubber a').length")

        def cell(values, target):
            median = statistics.median(values)
            verdict = "met" if median <= target else "missed"
            return (f"{median:.0f} ms median of {len(values)} (first {values[0]:.0f}, "
                    f"max {max(values):.0f}) | ≤ {target} ms, {verdict}")
        print(f"| browser, album of {count:,} assets over {months} months (headless chromium, cache off) | time | target |")
        print("| --- | --- | --- |")
        print(f"| first screen of thumbnails, from navigation start | {cell(first_screens, 1000)} |")
        print(f"| scrubber click to the oldest month ({oldest}) on screen | {cell(jumps, 300)} |")
        return 0
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait(timeout=10)
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    sys.exit(main())
