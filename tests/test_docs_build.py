"""The documentation site as built: code coloured at build time (nothing from a CDN), and
docstring examples fenced so that they render as code."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_site_colours_code_itself_and_loads_nothing_from_a_cdn():
    config = (ROOT / "mkdocs.yml").read_text()
    assert "highlightjs: false" in config and "pymdownx.highlight" in config
    assert ".highlight .k " in (ROOT / "docs" / "css" / "pygments.css").read_text()


def test_a_doctest_indented_under_a_paragraph_is_fenced_at_the_paragraphs_indent():
    """reST indents an example under its paragraph (``Needs the extra::``); a fence kept
    at four spaces is a Markdown code block that shows the fence as text."""
    path = ROOT / "docs" / "ext" / "sphinx_roles.py"
    spec = importlib.util.spec_from_file_location("sphinx_roles_under_test", path)
    assert spec is not None and spec.loader is not None
    roles = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(roles)
    text = "Needs the extra::\n\n    >>> 1 + 1\n    2\n\nAfter."
    assert roles._doctests(text) == ("Needs the extra:\n\n```pycon\n>>> 1 + 1\n2\n```\n\n"
                                     "After.")
    listed = "- an item\n\n  >>> 1\n  1"
    assert roles._doctests(listed) == "- an item\n\n  ```pycon\n  >>> 1\n  1\n  ```"
