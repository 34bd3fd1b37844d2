"""The README is the front door: short, in the user's words, every file it names there.

Its code blocks run with the docs pages' (``tests/test_docs.py`` runs every python block,
command line and curl line of the README and of docs/, each distinct one once)."""

from __future__ import annotations

import re

from test_docs import ROOT, pages, python_blocks

README = ROOT / "README.md"


def test_the_readme_is_a_front_door() -> None:
    """About 200 lines at most: what it is, the two set-up commands, a tour, the catalog,
    links; the two set-up commands exactly as .ci/run runs the second."""
    text = README.read_text("utf-8")
    assert len(text.splitlines()) <= 200
    blocks = re.findall(r"^```\n(.*?)^```", text, flags=re.S | re.M)
    assert "pip install . && perfectplay demo\n" in blocks
    assert 'pip install ".[test]" && python -m pytest\n' in blocks
    assert 'pip install ".[test]" && python -m pytest' in (ROOT / ".ci" / "run").read_text()
    assert any("class Subtract" in b for b in python_blocks())


#: Words of a development log, which belong in CHANGELOG.md, not in the user's docs.
DEVELOPMENT_LOG = [r"\bissue \d+", r"\bthis session\b", r"\bthe first version took\b",
                   r"\bissue's (target|figure)"]


def test_no_development_log_in_the_users_docs() -> None:
    """History goes to CHANGELOG.md; dated measurements to the benchmarks page."""
    for page in pages():
        if page.parent.name == "api":
            continue
        text = page.read_text("utf-8")
        for pattern in DEVELOPMENT_LOG:
            found = re.search(pattern, text, flags=re.I)
            assert found is None, (page.name, found.group(0) if found else "")


def test_every_example_file_named_in_the_docs_and_the_help_exists() -> None:
    cli = sorted((ROOT / "src" / "perfectplay" / "cli").glob("*.py"))
    texts = "".join(p.read_text("utf-8") for p in [*pages(), *cli])
    named = set(re.findall(r"examples/[\w./-]+\.(?:txt|out|py)", texts))
    assert len(named) >= 8
    assert [n for n in named if not (ROOT / n).is_file()] == []


def test_the_readme_defines_its_terms_before_using_them() -> None:
    """The words of the glossary the README uses are defined on the glossary page, and the
    README links to it before the first of them."""
    text = README.read_text("utf-8")
    glossary = (ROOT / "docs" / "glossary.md").read_text("utf-8")
    link = text.index("(docs/glossary.md)")
    for term in ("certified draw", "remoteness", "proof search", "store", "seed"):
        assert re.search(rf"^## .*{term}", glossary, flags=re.I | re.M), term
    assert link < text.index("## Set-up")
