#!/usr/bin/python3
"""explorer_shot.py — a screenshot of the explorer on any Dots-and-Boxes
database: `retrodb serve` started on it, the page opened in headless
Chromium (Debian's chromium and chromium-driver, through python3-selenium),
the position after MOVES shown, every value the page shows checked against
`retrodb query --json` first (a picture of wrong numbers is not taken).

usage: scripts/explorer_shot.py DIR OUT.png [--moves "h0,0 v1,2"]
           [--size 1200x900] [--retrodb bin/retrodb] [--timeout 600]

--timeout bounds the wait for the page's answer (a big quiet database
makes each frame state's tables the first time a lookup needs them, so
a 4x5 opening's 49 moves take a while). Exit status: 0 the picture is
written, 1 a value differs or the page did not answer, 2 a wrong
command line.
"""
import argparse
import json
import re
import subprocess
import sys
import time

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    sys.exit("explorer_shot: needs python3-selenium (scripts/install-deps.sh installs it); "
             "run it with /usr/bin/python3")


def serve(retrodb, db):
    """`retrodb serve` on a free port; the process and its URL."""
    p = subprocess.Popen([retrodb, "serve", "--dir", db, "--port", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    m = re.search(r"http://\S+", line)
    if not m:
        p.kill()
        sys.exit(f"explorer_shot: serve did not start: {line}{p.stderr.read()}")
    return p, m.group(0)


def browser(width, height):
    opts = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              f"--window-size={width},{height}"):
        opts.add_argument(a)
    opts.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


def main():
    ap = argparse.ArgumentParser(description="a checked screenshot of the explorer")
    ap.add_argument("dir")
    ap.add_argument("out")
    ap.add_argument("--moves", default="")
    ap.add_argument("--size", default="1200x900")
    ap.add_argument("--retrodb", default="bin/retrodb")
    ap.add_argument("--timeout", type=float, default=600)
    a = ap.parse_args()
    size = re.fullmatch(r"(\d+)x(\d+)", a.size)
    if not size:
        ap.error(f"--size {a.size}: give WIDTHxHEIGHT")
    moves = a.moves.split()

    t0 = time.time()
    q = subprocess.run([a.retrodb, "query", "--dir", a.dir, "--json", "--moves", " ".join(moves)],
                       capture_output=True, text=True)
    if q.returncode:
        print(f"explorer_shot: query: {q.stderr.strip()}", file=sys.stderr)
        return q.returncode
    want = json.loads(q.stdout)
    expect = {m["line"]: m["value"] for m in want["moves"]}
    print(f"query: {len(expect)} moves in {time.time() - t0:.1f} s")

    server, url = serve(a.retrodb, a.dir)
    d = browser(int(size.group(1)), int(size.group(2)))
    try:
        d.get(url)
        # the moves played by clicks, each once the page has answered the
        # position before
        for i, line in enumerate(moves):
            WebDriverWait(d, a.timeout).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, f'#board .move[data-line="{line}"]')
                and len(d.find_elements(By.CSS_SELECTOR, "#movelist li")) == i)
            d.find_element(By.CSS_SELECTOR, f'#board .move[data-line="{line}"]').click()
        WebDriverWait(d, a.timeout).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#movelist li")) == len(moves)
            and len(d.find_elements(By.CSS_SELECTOR, "#board .move")) == len(expect))
        got = {g.get_attribute("data-line"): int(g.get_attribute("data-value"))
               for g in d.find_elements(By.CSS_SELECTOR, "#board .move")}
        if got != expect:
            print(f"explorer_shot: the page shows {got}, query says {expect}", file=sys.stderr)
            return 1
        d.save_screenshot(a.out)
        print(f"{a.out}: {len(got)} moves, every value as query gives it "
              f"({time.time() - t0:.1f} s in all)")
        return 0
    except TimeoutException:
        print(f"explorer_shot: the page did not show the position within {a.timeout:g} s",
              file=sys.stderr)
        return 1
    finally:
        d.quit()
        server.terminate()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
