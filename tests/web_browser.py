"""web_browser.py — the explorer page driven as a person would, in headless
Chromium (Debian's chromium and chromium-driver, through python3-selenium):
every value the page shows is checked against `retrodb query --json`.

usage: python3 web_browser.py RETRODB URL DOTS_DIR CRAM_URL CRAM_DIR [SHOTS_DIR]

URL serves DOTS_DIR (a 3x3 database), CRAM_URL serves CRAM_DIR (a Cram
table); tests/web.sh starts both servers. With SHOTS_DIR, screenshots of
the opening and of a middle game are written there (the README's).
Prints one line a check and "web browser: N passed, M failed"; exits 1 on
any failure.
"""
import json
import os
import subprocess
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

# headless Chromium as scripts/explorer_shot.py opens it
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from explorer_shot import browser  # noqa: E402

RETRODB, URL, DOTS_DIR, CRAM_URL, CRAM_DIR = sys.argv[1:6]
SHOTS = sys.argv[6] if len(sys.argv) > 6 else None
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}")


def query(db, moves, pv=False):
    args = [RETRODB, "query", "--dir", db, "--json", "--moves", " ".join(moves)]
    if pv:
        args.append("--pv")
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def shown_moves(d, attr, value_attr):
    """{move name: value} as the page shows them (and their labels)."""
    out = {}
    for g in d.find_elements(By.CSS_SELECTOR, "#board .move"):
        label = g.find_element(By.CSS_SELECTOR, ".label").text
        out[g.get_attribute(attr)] = (int(g.get_attribute(value_attr)), label,
                                      "best" in g.get_attribute("class").split())
    return out


def wait_moves(d, n):
    """Wait until the page has drawn the answer after n moves."""
    WebDriverWait(d, 10).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#movelist li")) == n
        and d.execute_script("return document.querySelectorAll('#board .move').length") > 0
        or (n and d.find_element(By.ID, "verdict").text.startswith(("the game is over", "A cannot", "B cannot"))))


def check_dots(d, moves):
    want = query(DOTS_DIR, moves)
    got = shown_moves(d, "data-line", "data-value")
    expect = {m["line"]: (m["value"], f"{m['value']:+d}" if m["value"] else "0", m["best"])
              for m in want["moves"]}
    check(got == expect, f"after {moves}: the page shows {got}, query says {expect}")
    check(d.find_element(By.ID, "verdict").text == want["words"] or not want["moves"],
          f"after {moves}: verdict '{d.find_element(By.ID, 'verdict').text}' vs '{want['words']}'")
    scores = d.find_element(By.ID, "scores").text
    check(scores == f"boxes: A {want['taken']['A']} · B {want['taken']['B']}",
          f"after {moves}: scores '{scores}' vs {want['taken']}")
    owners = [t.text for t in d.find_elements(By.CSS_SELECTOR, "#board text.owner")]
    check(owners.count("A") == want["taken"]["A"] and owners.count("B") == want["taken"]["B"],
          f"after {moves}: boxes marked {owners} vs taken {want['taken']}")


def click_line(d, line):
    d.find_element(By.CSS_SELECTOR, f'#board .move[data-line="{line}"]').click()


def dots_tour():
    d = browser(1200, 900)
    try:
        d.get(URL)
        wait_moves(d, 0)
        check(d.title == "retrodb explorer", "the page's title")
        check_dots(d, [])
        if SHOTS:
            d.save_screenshot(f"{SHOTS}/explorer-3x3-opening.png")
        # clicks: a game with captures, each answer checked
        played = []
        for line in ["h0,0", "v0,0", "h1,0", "h0,1", "v0,2", "h1,1"]:
            click_line(d, line)
            played.append(line)
            wait_moves(d, len(played))
            check_dots(d, played)
        # v0,1 completes two boxes for the player to move
        click_line(d, "v0,1")
        played.append("v0,1")
        wait_moves(d, len(played))
        check_dots(d, played)
        want = query(DOTS_DIR, played)
        check(want["taken"]["A"] + want["taken"]["B"] == 2, "v0,1 took two boxes")
        if SHOTS:
            d.save_screenshot(f"{SHOTS}/explorer-3x3-middle.png")
        # the move list and the DBN string to copy
        check(d.find_element(By.ID, "moves-text").get_attribute("value") == " ".join(played),
              "the move list")
        dbn = d.find_element(By.ID, "dbn-text").get_attribute("value")
        by_dbn = json.loads(subprocess.run(
            [RETRODB, "query", "--dir", DOTS_DIR, "--json", "--dbn", dbn],
            check=True, capture_output=True, text=True).stdout)
        check(query(DOTS_DIR, played)["moves"] == by_dbn["moves"], "the DBN string is the position")
        # undo and redo, by button and by key
        d.find_element(By.ID, "undo").click()
        wait_moves(d, len(played) - 1)
        check_dots(d, played[:-1])
        d.find_element(By.ID, "redo").click()
        wait_moves(d, len(played))
        check_dots(d, played)
        d.find_element(By.TAG_NAME, "body").send_keys("u")
        wait_moves(d, len(played) - 1)
        check_dots(d, played[:-1])
        d.find_element(By.TAG_NAME, "body").send_keys("r")
        wait_moves(d, len(played))
        # the keyboard: Tab to a move, Enter plays it
        first = d.find_element(By.CSS_SELECTOR, "#board .move")
        line = first.get_attribute("data-line")
        d.execute_script("arguments[0].focus()", first)
        d.switch_to.active_element.send_keys(Keys.ENTER)
        played.append(line)
        wait_moves(d, len(played))
        check_dots(d, played)
        # the perfect game from here, shown and played out
        d.find_element(By.ID, "perfect").click()
        WebDriverWait(d, 10).until(lambda d: d.find_elements(By.ID, "play-out"))
        want = query(DOTS_DIR, played, pv=True)
        shown = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#pv li:not(.hint)")]
        check(len(shown) == len(want["pv"]) and all(
            li.startswith(f"{t['player']}: {' '.join(t['moves'])}") for li, t in zip(shown, want["pv"])),
            f"perfect game {shown} vs {want['pv']}")
        total = len(played) + sum(len(t["moves"]) for t in want["pv"])
        d.find_element(By.ID, "play-out").click()
        WebDriverWait(d, 10).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#movelist li")) == total)
        end = want["pv"][-1]["score"]
        check(d.find_element(By.ID, "scores").text == f"boxes: A {end['A']} · B {end['B']}",
              "the perfect game played out ends with its score")
        margin = end["A"] - end["B"]
        words = (f"the game is over: a draw (boxes taken: A {end['A']}, B {end['B']})" if margin == 0 else
                 f"the game is over: {'A' if margin > 0 else 'B'} won by {abs(margin)} "
                 f"(boxes taken: A {end['A']}, B {end['B']})")
        check(d.find_element(By.ID, "verdict").text == words,
              f"the game is over: '{d.find_element(By.ID, 'verdict').text}', want '{words}'")
        # reset, and the address keeps the position
        d.find_element(By.ID, "reset").click()
        wait_moves(d, 0)
        check_dots(d, [])
        d.get("about:blank")  # (the same page with another hash would not load again)
        d.get(URL + "#moves=h0%2C0+v0%2C0")
        wait_moves(d, 2)
        check_dots(d, ["h0,0", "v0,0"])
        # a bad position in the address: the error said, the start drawn
        d.get("about:blank")
        d.get(URL + "#moves=zz")
        wait_moves(d, 0)
        check_dots(d, [])
        check("the address's moves=zz" in d.find_element(By.ID, "error").text,
              f"a bad address: error '{d.find_element(By.ID, 'error').text}'")
        # the address edited in place is followed, without a reload
        d.execute_script("location.hash = '#moves=h0%2C0+v0%2C0+h1%2C0'")
        wait_moves(d, 3)
        check_dots(d, ["h0,0", "v0,0", "h1,0"])
        check(not d.find_element(By.ID, "error").is_displayed(), "the error goes once the address is good")
        d.execute_script("location.hash = '#moves=v9,9'")
        WebDriverWait(d, 10).until(lambda d: "moves=v9,9" in d.find_element(By.ID, "error").text)
        wait_moves(d, 0)
        check_dots(d, [])
        # a click leaves no focus ring behind (it looked like a hint)
        click_line(d, "h0,0")
        wait_moves(d, 1)
        check(d.execute_script("return document.querySelector('#board .move:focus-visible') === null"),
              "a click leaves a focus ring on the board")
        # the verdict beside the score and the buttons; an icon, no 404
        check(d.execute_script("return document.getElementById('verdict').closest('.panel') !== null"),
              "the verdict sits in the panel")
        check(d.execute_script("return document.querySelector('link[rel=icon]') !== null"), "a favicon")
    finally:
        d.quit()


def phone():
    """A phone-sized screen: nothing wider than the screen, the board usable."""
    d = browser(390, 844)
    try:
        d.get(URL)
        wait_moves(d, 0)
        wide = d.execute_script("return document.documentElement.scrollWidth")
        inner = d.execute_script("return window.innerWidth")
        check(wide <= inner, f"phone: the page is {wide} px wide on a {inner} px screen")
        box = d.find_element(By.ID, "board").rect
        check(box["width"] <= inner and box["width"] > 0.8 * inner,
              f"phone: the board is {box['width']} px wide")
        # lines are at least 44 px to tap (the usual minimum)
        hit = d.execute_script(
            "const b = document.getElementById('board');"
            "const w = parseFloat(getComputedStyle(b.querySelector('.move .hit')).strokeWidth);"
            "return w * b.getBoundingClientRect().width / b.viewBox.baseVal.width")
        check(hit >= 44, f"phone: a line is {hit:.0f} px to tap")
        click_line(d, "h0,0")
        wait_moves(d, 1)
        check_dots(d, ["h0,0"])
        # the perfect game's lines wrap instead of running off the screen
        d.find_element(By.ID, "perfect").click()
        WebDriverWait(d, 10).until(lambda d: d.find_elements(By.ID, "play-out"))
        cut = d.execute_script("return [...document.querySelectorAll('#pv li')]"
                               ".filter((li) => li.scrollWidth > li.clientWidth + 1).length")
        check(cut == 0, f"phone: {cut} lines of the perfect game cut off")
    finally:
        d.quit()


def cram_tour():
    d = browser(1000, 800)
    try:
        d.get(CRAM_URL)
        wait_moves(d, 0)
        played = []
        for _ in range(3):
            want = query(CRAM_DIR, played)
            got = shown_moves(d, "data-move", "data-nimber")
            expect = {}
            for m in want["moves"]:
                (r1, c1), (r2, c2) = m["cells"]
                expect[f"{r1},{c1}-{r2},{c2}"] = (m["nimber"], str(m["nimber"]), m["best"])
            check(got == expect, f"cram after {played}: {got} vs {expect}")
            move = sorted(expect)[len(expect) // 2]
            d.find_element(By.CSS_SELECTOR, f'#board .move[data-move="{move}"]').click()
            played.append(move)
            wait_moves(d, len(played))
        check(len(d.find_elements(By.CSS_SELECTOR, "#board .domino")) == 3, "three dominoes drawn")
    finally:
        d.quit()


dots_tour()
phone()
cram_tour()
print(f"web browser: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
