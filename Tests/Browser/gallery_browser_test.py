#!/usr/bin/python3
"""The gallery in a real browser: Debian's chromium, driven by chromedriver
through python3-selenium, against the built `photofiler` on a temporary library.

Checks: the albums page loads every cover (naturalWidth > 0); an album page
shows its assets and a file saved while it is open appears without a reload;
the keyboard moves between tiles; nine album tabs share one event stream; the
status line and months follow live changes; the scrubber and arrow keys scroll
to below the sticky header; a Live Photo (a motion photo made here) plays its
video while hovered, in the grid and on its own page; the picker returns what
was clicked and keeps its picks through a filter; no page logs a console error,
and an undecodable picture is a placeholder; a user album named like a smart
album is the one its name means; the Hide button on an asset's page takes it out of
the album's grid, into Hidden.
Screenshots go to test-artifacts/browser/ (and docs/ for the README with
--update-docs). Run by `make test`; exit status 0 when every check holds.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("PHOTOFILER_BINARY", os.path.join(ROOT, ".build", "debug", "photofiler"))
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "browser")
PICTURES = os.path.join(ROOT, "examples", "pictures")


def photofiler(library, *arguments, env=None):
    result = subprocess.run([BINARY, *arguments, "--library", library], capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise AssertionError(f"photofiler {' '.join(arguments)} failed: {result.stderr}")
    return result.stdout


def unique_jpeg(tag):
    """The sample JPEG with a comment segment of its own: new bytes, same picture."""
    with open(os.path.join(PICTURES, "sunset.jpg"), "rb") as f:
        data = f.read()
    text = f"photofiler browser test {tag}".encode()
    return data[:2] + b"\xff\xfe" + struct.pack(">H", len(text) + 2) + text + data[2:]


def save_new_jpeg(library, work, name, tag, album):
    """Writes a JPEG no other file has as `name` and files it into `album`; its asset id."""
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write(unique_jpeg(tag))
    return photofiler(library, "save", "--album", album, path).strip()


def motion_photo(work):
    """A Google motion photo: the sample JPEG with the XMP that announces a video
    (GCamera:MicroVideo, MicroVideoOffset = its length) and a 2 s H.264 MP4 from
    ffmpeg's test pattern appended after the JPEG's end."""
    clip = os.path.join(work, "clip.mp4")
    subprocess.run(["/usr/bin/ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc=duration=2:size=320x240:rate=15", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                    "-movflags", "+faststart", clip], check=True)
    with open(clip, "rb") as f:
        video = f.read()
    xmp = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
           '<rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" '
           f'GCamera:MicroVideo="1" GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="{len(video)}"/>'
           '</rdf:RDF></x:xmpmeta>').encode()
    segment = b"http://ns.adobe.com/xap/1.0/\0" + xmp
    jpeg = unique_jpeg("motion photo")
    path = os.path.join(work, "PXL_20231201_123456789.MP.jpg")
    with open(path, "wb") as f:
        f.write(jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(segment) + 2) + segment + jpeg[2:] + video)
    return path


def undecodable_heic(work):
    """A HEIC whose picture data is zeroed: its boxes and metadata are intact, so it
    is filed, but no thumbnail can be made of it."""
    with open(os.path.join(ROOT, "Tests", "Fixtures", "corpus", "libheif_example.heic"), "rb") as f:
        data = bytearray(f.read())
    offset = 0
    while offset + 8 <= len(data):
        size = struct.unpack(">I", data[offset:offset + 4])[0]
        if size < 8:
            break
        if data[offset + 4:offset + 8] == b"mdat":
            end = min(offset + size, len(data))
            data[offset + 8:end] = bytes(end - offset - 8)
        offset += size
    path = os.path.join(work, "undecodable.heic")
    with open(path, "wb") as f:
        f.write(data)
    return path


PLAYING = ("const v = document.querySelector('[data-live-video=\"' + arguments[0] + '\"]');"
           "return v !== null && !v.paused && v.readyState >= 2 && v.currentTime > 0;")
PAUSED = ("const v = document.querySelector('[data-live-video=\"' + arguments[0] + '\"]');"
          "return v !== null && v.paused;")


def wait_for_line(process, timeout=30):
    """The first line the process prints (its address); waits for it, never a fixed time."""
    deadline = time.monotonic() + timeout
    line = process.stdout.readline()
    if not line or time.monotonic() > deadline:
        raise AssertionError("the server printed no address: " + process.stderr.read())
    return line.strip()


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--lang=en-US"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(20)  # a page that cannot get a connection fails, not hangs
    return driver


def ready(driver, timeout=20):
    WebDriverWait(driver, timeout).until(
        lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))


def console_errors(driver):
    """The SEVERE entries of the browser's console since the last look: failed loads, script errors."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print("ok:", message)


def main():
    os.makedirs(ARTIFACTS, exist_ok=True)
    work = tempfile.mkdtemp(prefix="photofiler-browser-")
    library = os.path.join(work, "library")
    server = None
    driver = None
    try:
        pictures = sorted(os.path.join(PICTURES, name) for name in os.listdir(PICTURES))
        photofiler(library, "save", "--album", "Examples", *pictures[:4])
        photofiler(library, "save", "--album", "Holiday", *pictures[4:])
        live_id = photofiler(library, "save", "--album", "Live", motion_photo(work)).strip()
        live = json.loads(photofiler(library, "info", live_id, "--json"))
        check(live["subtypes"] == ["live"] and live["liveVideo"]["embedded"] and live["liveVideo"]["duration"],
              f"the motion photo is Live Photo {live_id} with its embedded video ({live['liveVideo']})")
        server = subprocess.Popen([BINARY, "serve", "--library", library, "--listen", "127.0.0.1:0"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        base = wait_for_line(server).rstrip("/")
        driver = browser()

        # The albums page: every album a tile with its cover, every cover decoded.
        albums = json.loads(photofiler(library, "albums", "--json"))
        driver.get(base + "/")
        ready(driver)
        tiles = driver.find_elements(By.CSS_SELECTOR, "[data-album]")
        check([t.get_attribute("data-album") for t in tiles] == [a["name"] for a in albums],
              "the albums page shows every album, user then smart")
        covered = sum(1 for a in albums if a["cover"] is not None)
        WebDriverWait(driver, 20).until(lambda d: d.execute_script(
            "const images = [...document.querySelectorAll('[data-album] img')];"
            "return images.length === arguments[0] && images.every(i => i.complete && i.naturalWidth > 0);", covered))
        check(True, f"all {covered} covers loaded (naturalWidth > 0)")
        driver.save_screenshot(os.path.join(ARTIFACTS, "albums.png"))
        errors = console_errors(driver)
        check(not errors, f"the albums page logs no console errors {errors}")

        # An album: its assets, newest first by month; the first screen's timing.
        driver.get(base + "/albums/Examples")
        ready(driver)
        expected = {str(a["id"]) for a in json.loads(photofiler(library, "list", "--album", "Examples", "--json"))}
        WebDriverWait(driver, 20).until(lambda d: {t.get_attribute("data-asset-id") for t in
                                                   d.find_elements(By.CSS_SELECTOR, "[data-asset-id]")} == expected)
        WebDriverWait(driver, 20).until(lambda d: d.execute_script(
            "return [...document.querySelectorAll('[data-asset-id] img')].every(i => i.complete && i.naturalWidth > 0)"))
        first_screen = driver.execute_script(
            "const n = performance.getEntriesByType('navigation')[0];"
            "const images = performance.getEntriesByType('resource').filter(r => r.name.includes('/thumbnail'));"
            "return Math.max(...images.map(r => r.responseEnd)) - n.startTime;")
        check(True, f"the album page shows its {len(expected)} thumbnails ({first_screen:.0f} ms to the last one)")
        check(all(t.get_attribute("alt") for t in driver.find_elements(By.CSS_SELECTOR, "[data-asset-id] img")),
              "every thumbnail has an alt text")

        # The keyboard: an arrow focuses a tile, the next arrow moves to the next tile.
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.ARROW_RIGHT)
        first = driver.execute_script("return document.activeElement.dataset.assetId")
        driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
        second = driver.execute_script("return document.activeElement.dataset.assetId")
        check(first and second and first != second, "arrow keys move between tiles")

        # A file saved while the page is open appears without a reload.
        new_id = save_new_jpeg(library, work, "arrived.jpg", "arrival", "Examples")
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-asset-id="{new_id}"]'))
        check(True, f"asset {new_id}, saved while the album was open, appeared without a reload")
        driver.save_screenshot(os.path.join(ARTIFACTS, "album.png"))
        errors = console_errors(driver)
        check(not errors, f"the album page logs no console errors {errors}")

        # Eight more album tabs: every page of the origin shares one event stream (one each
        # used up the browser's six connections to the host, and later pages never loaded).
        first_tab = driver.current_window_handle
        for album in ["Examples", "Holiday", "Live"] * 2 + ["Examples", "Holiday"]:
            driver.switch_to.new_window("tab")
            driver.get(base + "/albums/" + album)
            ready(driver)
        last_tab = driver.current_window_handle
        check(True, "the eighth extra album tab loaded")
        driver.switch_to.new_window("tab")
        driver.get(base + f"/assets/{new_id}")
        ready(driver)
        WebDriverWait(driver, 20).until(lambda d: d.execute_script(
            "const i = document.querySelector('figure img'); return i !== null && i.complete && i.naturalWidth > 0"))
        check(True, "with nine album tabs open, an asset page loads its picture")
        driver.close()
        driver.switch_to.window(last_tab)
        later_id = save_new_jpeg(library, work, "arrived-later.jpg", "arrival with many tabs", "Holiday")
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-asset-id="{later_id}"]'))
        check(True, f"asset {later_id} appeared live in the last of nine album tabs")
        for handle in driver.window_handles:
            if handle != first_tab:
                driver.switch_to.window(handle)
                driver.close()
        driver.switch_to.window(first_tab)
        errors = console_errors(driver)
        check(not errors, f"the tabs log no console errors {errors}")

        # A browser without SharedWorker: the page opens its own stream, and new assets still appear.
        without = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.SharedWorker;"})
        driver.get(base + "/albums/Holiday")
        ready(driver)
        check(driver.execute_script("return typeof SharedWorker") == "undefined", "this page has no SharedWorker")
        alone_id = save_new_jpeg(library, work, "arrived-alone.jpg", "arrival without SharedWorker", "Holiday")
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-asset-id="{alone_id}"]'))
        check(True, f"asset {alone_id} appeared live through the page's own EventSource")
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": without["identifier"]})

        # The status line counts what is shown as assets come and go; a month emptied loses its
        # heading and scrubber link; a filter that matches nothing says so.
        def unique_copy(name, tag):
            with open(os.path.join(PICTURES, name), "rb") as f:
                data = f.read()
            os.makedirs(os.path.join(work, tag), exist_ok=True)
            path = os.path.join(work, tag, name)  # its own name: a screenshot is known by it
            with open(path, "wb") as f:
                f.write(data + tag.encode())  # after the picture's end: new bytes, same picture and date
            return path

        def status_is(text):
            return lambda d: d.find_element(By.ID, "status").text == text

        def months_shown():
            return [a.get_attribute("data-month") for a in driver.find_elements(By.CSS_SELECTOR, ".scrubber a")]

        kept = photofiler(library, "save", "--album", "Counted", unique_copy("sunset.jpg", "counted")).strip()
        driver.get(base + "/albums/Counted")
        ready(driver)
        check(driver.find_element(By.ID, "status").text == "1 item", "one asset is '1 item'")
        gone = photofiler(library, "save", "--album", "Counted", unique_copy("harbour.jpg", "counted")).strip()
        gone_month = json.loads(photofiler(library, "info", gone, "--json"))["created"][:7]
        check(gone_month != json.loads(photofiler(library, "info", kept, "--json"))["created"][:7],
              "the two assets are from different months")
        WebDriverWait(driver, 10).until(status_is("2 items"))
        check(gone_month in months_shown(), "an asset that arrives updates the count, its month is in the scrubber")
        photofiler(library, "rm", gone)
        WebDriverWait(driver, 10).until(status_is("1 item"))
        WebDriverWait(driver, 10).until(lambda d: gone_month not in months_shown()
                                        and not d.find_elements(By.ID, "month-" + gone_month))
        check(True, "an asset that goes updates the count; its emptied month loses heading and scrubber link")
        driver.find_element(By.CSS_SELECTOR, 'input[type="search"]').send_keys("no such name")
        WebDriverWait(driver, 10).until(status_is("0 items"))
        check(driver.find_element(By.CSS_SELECTOR, "#main .hint").text == "Nothing matches these filters.",
              "a filter that matches nothing says so")

        # The scrubber and the arrow keys scroll their month or tile to below the sticky header, not under it.
        driver.set_window_size(500, 800)
        driver.get(base + "/albums/Examples")
        ready(driver)
        month = driver.find_elements(By.CSS_SELECTOR, ".scrubber a")[2].get_attribute("data-month")
        driver.find_element(By.CSS_SELECTOR, f'.scrubber a[data-month="{month}"]').click()
        WebDriverWait(driver, 10).until(lambda d: d.execute_script(
            "return window.scrollY > 0 && document.activeElement.matches('#month-' + arguments[0] + ' .tile')", month))
        visible = ("const box = arguments[0].getBoundingClientRect();"
                   "const top = document.elementFromPoint(box.left + 5, box.top + 5);"
                   "return top !== null && top.closest('header') === null;")
        check(driver.execute_script(visible, driver.find_element(By.CSS_SELECTOR, f"#month-{month} h2")),
              f"the scrubber scrolled {month}'s heading to below the header")
        for _ in range(2):  # the first tile above is in view already; the second is not
            driver.switch_to.active_element.send_keys(Keys.ARROW_UP)
        check(driver.execute_script(visible, driver.switch_to.active_element),
              "the arrow keys scroll the tile they move to below the header")
        driver.set_window_size(1280, 900)

        # A Live Photo moves while the mouse is over it: in the grid, then on its own page.
        driver.get(base + "/albums/Live")
        ready(driver)
        tile = WebDriverWait(driver, 20).until(
            lambda d: d.find_element(By.CSS_SELECTOR, f'.live[data-asset-id="{live_id}"]'))
        check(not driver.find_elements(By.CSS_SELECTOR, "[data-live-video]"), "no video is loaded before a hover")
        ActionChains(driver).move_to_element(tile).perform()
        WebDriverWait(driver, 20).until(lambda d: d.execute_script(PLAYING, live_id))
        check(True, f"hovering Live Photo {live_id} plays its video in the grid (currentTime > 0)")
        driver.save_screenshot(os.path.join(ARTIFACTS, "live-hover.png"))
        ActionChains(driver).move_to_element(driver.find_element(By.ID, "title")).perform()
        WebDriverWait(driver, 10).until(lambda d: d.execute_script(PAUSED, live_id))
        check(True, "leaving it pauses the video")
        driver.get(base + f"/assets/{live_id}")
        ready(driver)
        frame = driver.find_element(By.CSS_SELECTOR, ".live-frame")
        ActionChains(driver).move_to_element(frame).perform()
        WebDriverWait(driver, 20).until(lambda d: d.execute_script(PLAYING, live_id))
        check("inside the picture" in driver.page_source, "the asset page plays the Live Photo and says where its video is")

        # One asset.
        driver.get(base + f"/assets/{new_id}")
        ready(driver)
        check("Download original" in driver.page_source, "the asset page offers its original")
        driver.save_screenshot(os.path.join(ARTIFACTS, "asset.png"))
        errors = console_errors(driver)
        check(not errors, f"the Live Photo and asset pages log no console errors {errors}")

        # The picker: `pick` opens its page through $BROWSER; a click picks, Add returns it.
        opened = os.path.join(work, "opened.txt")
        fake = os.path.join(work, "browser.sh")
        with open(fake, "w") as f:
            f.write(f"#!/bin/sh\nprintf '%s' \"$1\" > '{opened}.tmp' && mv '{opened}.tmp' '{opened}'\n")
        os.chmod(fake, 0o755)
        env = dict(os.environ, BROWSER=fake, DISPLAY="", XDG_CURRENT_DESKTOP="", XDG_RUNTIME_DIR=work)
        pick = subprocess.Popen([BINARY, "pick", "--library", library, "--album", "Examples", "--limit", "1"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        deadline = time.monotonic() + 30
        while not os.path.exists(opened):
            if pick.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("pick did not open the browser: " + pick.stderr.read())
            time.sleep(0.02)
        # The browser is given a private file (its token on no command line) that leads to the picker.
        with open(opened) as f:
            door = f.read()
        check(door.startswith(work + "/photofiler-pick-") and os.stat(door).st_mode & 0o777 == 0o600,
              f"pick gave the browser a file of the user's alone ({door})")
        driver.get("file://" + door)
        ready(driver)
        WebDriverWait(driver, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-asset-id]")) == len(expected) + 1)
        tiles = driver.find_elements(By.CSS_SELECTOR, "[data-asset-id]")
        chosen = tiles[1].get_attribute("data-asset-id")
        tiles[0].click()
        tiles[1].click()  # the limit is 1: the second click replaces the first
        driver.save_screenshot(os.path.join(ARTIFACTS, "pick.png"))
        driver.find_element(By.CSS_SELECTOR, '[data-action="add"]').click()
        out, err = pick.communicate(timeout=20)
        info = json.loads(photofiler(library, "info", chosen, "--json"))
        check(pick.returncode == 0, f"pick exited 0 ({err.strip()})")
        check(out.splitlines() == [info["path"]], f"pick printed the clicked asset's roll path {info['path']}")

        # The gallery's own picker (no command waiting): its query is the filter, Add shows what was picked.
        driver.get(base + "/pick?album=Examples&limit=2")
        ready(driver)
        WebDriverWait(driver, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-asset-id]")) == len(expected) + 1)
        tiles = driver.find_elements(By.CSS_SELECTOR, "[data-asset-id]")
        chosen = [t.get_attribute("data-asset-id") for t in tiles[:2]]
        for tile in tiles[:3]:
            tile.click()  # the third is refused: the limit is 2
        check("At most 2" in driver.find_element(By.ID, "status").text, "the gallery's picker holds its limit")

        # A filter draws the tiles again: a picked one is still shown picked, and can be unpicked.
        def pressed(asset_id):
            tile = driver.find_element(By.CSS_SELECTOR, f'[data-asset-id="{asset_id}"]')
            return tile.get_attribute("aria-pressed") == "true" and "selected" in tile.get_attribute("class")

        def shown_ids():
            return {t.get_attribute("data-asset-id") for t in driver.find_elements(By.CSS_SELECTOR, "[data-asset-id]")}

        name = driver.find_element(By.CSS_SELECTOR, 'input[type="search"]')
        name.send_keys(json.loads(photofiler(library, "info", chosen[0], "--json"))["originalName"])
        WebDriverWait(driver, 10).until(lambda d: shown_ids() == {chosen[0]})
        check(pressed(chosen[0]), "a picked tile drawn again by the name search is shown picked")
        driver.find_element(By.CSS_SELECTOR, f'[data-asset-id="{chosen[0]}"]').click()
        add = driver.find_element(By.CSS_SELECTOR, '[data-action="add"]')
        check(not pressed(chosen[0]) and add.text == "Add 1", "it can be unpicked there; one pick is left")
        name.send_keys(Keys.CONTROL, "a", Keys.BACKSPACE)
        WebDriverWait(driver, 10).until(lambda d: len(shown_ids()) == len(expected) + 1)
        check(pressed(chosen[1]) and not pressed(chosen[0]), "with the search cleared, the other pick is still shown picked")
        driver.find_element(By.CSS_SELECTOR, f'[data-asset-id="{chosen[0]}"]').click()
        check(pressed(chosen[0]) and add.text == "Add 2", "and the first can be picked again")
        add.click()
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-picked]"))
        shown = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "[data-picked]")]
        paths = [json.loads(photofiler(library, "info", i, "--json"))["path"] for i in chosen]
        check(sorted(shown) == sorted(paths), f"the gallery's picker shows the picked roll paths {paths}")
        errors = console_errors(driver)
        check(not errors, f"the pickers log no console errors {errors}")

        # A picture no thumbnail can be made of: its tile and its album's cover are a neutral
        # placeholder, not a broken image; the thumbnail's 404 is the one error in the console.
        broken_id = photofiler(library, "save", "--album", "Broken", undecodable_heic(work)).strip()
        no_broken_image = ("return document.querySelectorAll('.placeholder').length > 0"
                           " && [...document.images].every(i => !i.complete || i.naturalWidth > 0);")
        for page, what in [("/albums/Broken", "its tile"), ("/", "its album's cover"), (f"/assets/{broken_id}", "its page")]:
            driver.get(base + page)
            ready(driver)
            WebDriverWait(driver, 20).until(lambda d: d.execute_script(no_broken_image))
            errors = console_errors(driver)
            check(all(f"/api/assets/{broken_id}/thumbnail" in e and "404" in e for e in errors),
                  f"an undecodable picture's thumbnail shows as a placeholder on {what} ({len(errors)} 404 logged)")

        # A user album with a smart album's name (an inbox named Screenshots) is the album the name
        # means: one tile on /, and its page shows its own members live, not the smart album's.
        member = photofiler(library, "save", "--album", "Screenshots", unique_copy("sunset.jpg", "member")).strip()
        driver.get(base + "/")
        ready(driver)
        check(len(driver.find_elements(By.CSS_SELECTOR, '[data-album="Screenshots"]')) == 1,
              "the albums page shows one tile for the user album named Screenshots")
        driver.get(base + "/albums/Screenshots")
        ready(driver)
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-asset-id="{member}"]'))
        screenshot = photofiler(library, "save", "--album", "Examples",
                                unique_copy("Screenshot_20240105-093000.png", "elsewhere")).strip()
        check("screenshot" in json.loads(photofiler(library, "info", screenshot, "--json"))["subtypes"],
              f"asset {screenshot}, saved into Examples, is a screenshot")
        later_member = photofiler(library, "save", "--album", "Screenshots", unique_copy("sunset.jpg", "later")).strip()
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-asset-id="{later_member}"]'))
        WebDriverWait(driver, 10).until(status_is("2 items"))
        check(not driver.find_elements(By.CSS_SELECTOR, f'[data-asset-id="{screenshot}"]'),
              "a new member appears live in the user album Screenshots, a screenshot of another album does not")

        # The owner opens a share link to check it: the shared album alone, then "Leave
        # shared view" gives the whole gallery back (the share's cookie is its own).
        link = photofiler(library, "share", "Holiday").strip()
        share_path = link[link.index("/albums/"):]
        driver.get(base + share_path)
        ready(driver)
        driver.get(base + "/")
        ready(driver)
        WebDriverWait(driver, 10).until(lambda d: [t.get_attribute("data-album")
                                                   for t in d.find_elements(By.CSS_SELECTOR, "[data-album]")] == ["Holiday"])
        check(True, "after a share link, the albums page shows the shared album alone")
        driver.find_element(By.CSS_SELECTOR, '[data-action="leave-share"]').click()
        WebDriverWait(driver, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-album]")) > 1)
        check(True, "Leave shared view gives the owner the whole gallery back")

        # Hide from an asset's page: the album's grid, open in another tab, drops the tile at
        # once and counts one item less; loaded again it still lacks it; the Hidden album has it.
        hidden_id = photofiler(library, "save", "--album", "Hiding", unique_copy("sunset.jpg", "hiding")).strip()
        shown_id = photofiler(library, "save", "--album", "Hiding", unique_copy("harbour.jpg", "hiding")).strip()
        driver.get(base + "/albums/Hiding")
        ready(driver)
        WebDriverWait(driver, 10).until(status_is("2 items"))
        grid_tab = driver.current_window_handle
        driver.switch_to.new_window("tab")
        driver.get(base + f"/assets/{hidden_id}")
        ready(driver)
        driver.find_element(By.CSS_SELECTOR, '[data-action="hide"]').click()
        WebDriverWait(driver, 10).until(lambda d: d.find_element(
            By.CSS_SELECTOR, '[data-action="hide"]').get_attribute("aria-pressed") == "true")
        check(json.loads(photofiler(library, "info", hidden_id, "--json"))["hidden"],
              f"the Hide button on asset {hidden_id}'s page hid it")
        driver.close()
        driver.switch_to.window(grid_tab)
        WebDriverWait(driver, 10).until(lambda d: not d.find_elements(By.CSS_SELECTOR, f'[data-asset-id="{hidden_id}"]'))
        WebDriverWait(driver, 10).until(status_is("1 item"))
        check(True, "the hidden asset left the open album grid at once, and its count")
        driver.get(base + "/albums/Hiding")
        ready(driver)
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-asset-id="{shown_id}"]'))
        check(not driver.find_elements(By.CSS_SELECTOR, f'[data-asset-id="{hidden_id}"]'),
              "the album page loaded again does not show the hidden asset")
        driver.get(base + "/albums/Hidden")
        ready(driver)
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-asset-id="{hidden_id}"]'))
        check(True, "the Hidden album shows it")
        # The albums page before may still be logging the undecodable picture's 404s: those are its own.
        errors = [e for e in console_errors(driver) if f"/api/assets/{broken_id}/thumbnail" not in e]
        check(not errors, f"hiding logs no console errors {errors}")

        if "--update-docs" in sys.argv:
            docs = os.path.join(ROOT, "docs")
            os.makedirs(docs, exist_ok=True)
            for name in ("albums.png", "album.png"):
                shutil.copy(os.path.join(ARTIFACTS, name), os.path.join(docs, "gallery-" + name))
        print("browser test passed; screenshots in", ARTIFACTS)
        return 0
    finally:
        if driver:
            driver.quit()
        if server:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
