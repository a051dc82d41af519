"""The page: served whole by the companion, in the table's language, every typed name as text."""

import json
import re
from pathlib import Path

import pytest
import segno

from tests.web.conftest import PIN
from web import translations

WEB = Path(__file__).resolve().parents[2] / "web"
XSS = "<img src=x onerror=alert(1)>"


def boot(page):
    found = re.search(r'<script type="application/json" id="boot">(.*?)</script>', page)
    return json.loads(found.group(1))


def test_the_page_carries_the_state_words_and_viewer(client):
    answer = client.get("/")
    assert answer.status_code == 200
    data = boot(answer.text)
    assert data["state"] == client.get("/api/state").json
    assert data["viewer"]["trusted"] is False
    assert data["lang"] == "en"
    assert data["words"]["undo"] == "Undo the last action"
    assert '<html lang="en">' in answer.text


def test_the_page_allows_no_script_or_style_from_elsewhere(client):
    policy = client.get("/").headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert client.get("/").headers["X-Content-Type-Options"] == "nosniff"


def test_every_asset_is_served_by_the_companion_itself(client):
    for page in ("/", "/new", "/calibrate"):
        text = client.get(page).text
        assets = re.findall(r'(?:<link[^>]*href|src)="([^"]+)"', text)
        assert assets and all(a.startswith("/static/") or a == "/join.svg"
                              for a in assets), page
        links = re.findall(r'<a [^>]*href="([^"]+)"', text)
        assert all(a.startswith("/") and not a.startswith("//") for a in links), page
        for asset in assets + links:
            with client.get(asset, headers={"X-Table-Pin": PIN}) as answer:
                assert answer.status_code == 200, asset
    for path in WEB.rglob("*"):
        if path.suffix in {".html", ".css", ".js"}:
            text = path.read_text()
            outside = re.findall(r"https?://[^\s\"')]+", text)
            assert [u for u in outside if u != "http://www.w3.org/2000/svg"] == [], path


def test_a_language_chosen_on_the_page_is_remembered(client):
    answer = client.get("/?lang=fr")
    assert boot(answer.text)["words"]["undo"] == "Annuler la dernière action"
    assert "lang=fr" in answer.headers["Set-Cookie"]
    assert boot(client.get("/").text)["lang"] == "fr"
    assert boot(client.get("/?lang=xx").text)["lang"] == "fr"


def test_the_browsers_language_is_used_until_one_is_chosen(client):
    answer = client.get("/", headers={"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.8"})
    assert boot(answer.text)["lang"] == "fr"
    assert boot(client.get("/", headers={"Accept-Language": "de-AT"}).text)["lang"] == "de"
    assert boot(client.get("/", headers={"Accept-Language": "ja"}).text)["lang"] == "en"


def test_every_language_has_every_english_word():
    languages = translations.load(WEB / "languages")
    english = set(json.loads((WEB / "languages" / "en.json").read_text()))
    for code in languages:
        own = set(json.loads((WEB / "languages" / f"{code}.json").read_text()))
        assert own == english, code


def test_a_contributor_adds_a_language_with_a_file_alone(tmp_path):
    for name in ("en.json", "fr.json"):
        (tmp_path / name).write_text((WEB / "languages" / name).read_text())
    (tmp_path / "de.json").write_text('{"_language": "Deutsch", "undo": "Rückgängig"}')
    languages = translations.load(tmp_path)
    assert languages["de"]["undo"] == "Rückgängig"
    assert languages["de"]["history"] == "History"
    assert translations.choose(languages, ["", "de-AT"]) == "de"


@pytest.fixture
def header():
    return {"game": "camelup-2014", "players": [XSS, "Bob"],
            "start": {"1": ["blue"], "2": ["green"], "3": ["orange"], "5": ["yellow"],
                      "7": ["white"]}}


def test_a_typed_name_never_becomes_markup(client):
    page = client.get("/").text
    assert XSS not in page
    assert boot(page)["state"]["players"][0]["name"] == XSS
    with client.get("/static/dashboard.js") as script:
        assert ".innerHTML" not in script.text and "insertAdjacentHTML" not in script.text


def test_the_page_shows_a_qr_code_of_the_table_address_never_of_the_pin(app, client):
    app.config["JOIN_URLS"] = ["http://192.168.1.23:8000/", "http://camel.local:8000/"]
    page = client.get("/").text
    assert "<code>http://192.168.1.23:8000/</code>" in page
    assert "<code>http://camel.local:8000/</code>" in page
    code = client.get("/join.svg")
    assert code.mimetype == "image/svg+xml"
    assert code.text == segno.make("http://192.168.1.23:8000/", error="m").svg_inline(
        scale=6, border=2)


def test_without_a_known_address_the_code_is_the_one_the_page_was_opened_at(client):
    assert client.get("/join.svg").text == segno.make("http://localhost/", error="m").svg_inline(
        scale=6, border=2)


def test_the_pi_screen_shows_its_own_wifi_as_a_code_while_it_is_a_hotspot(app, client):
    from companion.hotspot import Hotspot

    app.config["JOIN_URLS"] = ["http://camel.local:8000/"]
    app.config["HOTSPOT"] = Hotspot("desert-race", ssid="camel table", address="127.0.0.1")
    kiosk = client.get("/").text
    assert "<code>camel table</code>" in kiosk and "<code>http://127.0.0.1:8000/</code>" in kiosk
    assert client.get("/wifi.svg").text == segno.make(
        "WIFI:T:WPA;S:camel table;P:desert-race;;", error="m").svg_inline(scale=6, border=2)
    assert client.get("/join.svg").text == segno.make(
        "http://127.0.0.1:8000/", error="m").svg_inline(scale=6, border=2)
    phone = {"REMOTE_ADDR": "192.168.1.50"}
    assert "camel table" not in client.get("/", environ_base=phone).text
    assert client.get("/wifi.svg", environ_base=phone).status_code == 404


def test_a_hotspot_that_is_off_is_not_shown(app, client):
    from companion.hotspot import Hotspot

    app.config["HOTSPOT"] = Hotspot("desert-race", ssid="camel table", address="192.0.2.7")
    assert "camel table" not in client.get("/").text
    assert client.get("/wifi.svg").status_code == 404
