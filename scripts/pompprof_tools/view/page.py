"""The HTML page: the style and script of assets/ and the packed data, inline.  Nothing
is loaded from elsewhere at view time (the page's Content-Security-Policy forbids it)."""

from __future__ import annotations

import html
import os

ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets")
SCRIPTS = ("util.js", "profile.js", "flame.js", "tables.js", "compare.js", "trace.js", "graph.js",
           "main.js")


def asset(name: str) -> str:
    with open(os.path.join(ASSETS, name), encoding="utf-8") as f:
        return f.read()


def render(title: str, meta: str, arrays: str, index_json: str) -> str:
    """meta, arrays: base64 of gzip (blob.py); index_json: where each array lies."""
    script = "\n".join(asset(s) for s in SCRIPTS).replace("</script", "<\\/script")
    return "".join([
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n",
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:\">\n",
        "<title>", html.escape(title), "</title>\n<style>\n", asset("view.css"),
        "</style></head>\n<body>\n", asset("body.html"),
        "<script type=\"application/json\" id=\"pp-index\">",
        index_json.replace("</", "<\\/"), "</script>\n",
        "<script type=\"text/plain\" id=\"pp-meta\">", meta, "</script>\n",
        "<script type=\"text/plain\" id=\"pp-arrays\">", arrays, "</script>\n",
        "<script>\n", script, "\n</script>\n</body></html>\n"])
