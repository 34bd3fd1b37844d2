"""A griffe extension for the API reference: perfectplay's docstrings are written for Sphinx
(reST roles such as :func:`solve`, ``literals`` and doctest examples), and mkdocstrings
renders Markdown. Once the package is loaded, this rewrites every docstring:

- each role (``:func:``, ``:class:``, ``:meth:``, ``:mod:``, ``:data:``, ``:attr:``,
  ``:exc:``, ``:obj:``; ``~`` shows the last name only; ``.name`` and ``..name`` are relative
  to the module, as in a Python import) becomes a cross-reference to the object's full path,
  a link wherever the reference documents that object, plain code where it does not (a
  private module); a role naming nothing in the package, in a public docstring, is a
  warning, so ``mkdocs build --strict`` fails on it (a private one is never rendered);
- doctest examples (``>>>`` lines and their output) become ``pycon`` code blocks.

The docstrings themselves stay as they are (no hand edits of hundreds of roles).
"""

from __future__ import annotations

import builtins
import html
import importlib.util
import logging
import re
from typing import Any

import griffe

_log = logging.getLogger("mkdocs.plugins.perfectplay.sphinx_roles")

_ROLE = re.compile(r":(?:py:)?(func|class|meth|mod|data|attr|exc|obj|const):`([^`]+)`")


def _external(name: str) -> bool:
    """Whether ``name`` is a module of another distribution or of the standard library."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _lookup(root: Any, path: str) -> Any | None:
    """The object at the dotted ``path`` under the package ``root`` (aliases followed
    within the package), or None."""
    parts = path.split(".")
    if parts[0] != root.name:
        return None
    obj = root
    for part in parts[1:]:
        try:
            members = obj.members
        except Exception:  # an alias that leaves the package
            return None
        if part not in members:
            return None
        obj = members[part]
        if obj.is_alias:
            try:
                obj = obj.final_target
            except Exception:
                return None
    return obj


class SphinxRoles(griffe.Extension):
    """Rewrites reST roles into cross-references and doctests into code blocks."""

    def __init__(self) -> None:
        super().__init__()
        self.unresolved: list[str] = []

    def on_package(self, *, pkg: Any, **kwargs: Any) -> None:  # noqa: D102
        if pkg.name != "perfectplay":
            return
        index: dict[str, list[str]] = {}
        seen: set[int] = set()

        def walk(obj: Any) -> None:
            if id(obj) in seen:
                return
            seen.add(id(obj))
            for member in list(obj.members.values()):
                if member.is_alias:
                    continue
                index.setdefault(member.name, []).append(member.path)
                walk(member)

        walk(pkg)
        seen.clear()

        def fix(obj: Any) -> None:
            if id(obj) in seen:
                return
            seen.add(id(obj))
            if obj.docstring is not None:
                obj.docstring.value = self._rewrite(pkg, obj, obj.docstring.value, index)
            for member in list(obj.members.values()):
                if not member.is_alias:
                    fix(member)

        fix(pkg)

    def _resolve(self, pkg: Any, obj: Any, target: str, index: dict[str, list[str]],
                 kind: str = "obj") -> str | None:
        module = obj if obj.is_module else obj.module
        candidates: list[str] = []
        if target.startswith("."):
            dots = len(target) - len(target.lstrip("."))
            rest = target[dots:]
            base = module.path.split(".")
            if not module.is_package:
                base = base[:-1]
            base = base[: len(base) - (dots - 1)] if dots > 1 else base
            candidates.append(".".join([*base, rest]))
            # Sphinx's reading: a name in the scope of the object or its module
            scopes = [obj, obj.parent, module]
            candidates += [f"{s.path}.{rest}" for s in scopes if s is not None]
        else:
            scopes = [obj, obj.parent, module, module.parent, pkg]
            candidates += [f"{s.path}.{target}" for s in scopes if s is not None]
            candidates.append(target)
        for path in candidates:
            found = _lookup(pkg, path)
            if found is not None and found.is_module and kind != "mod":
                # ``perfectplay.solve``: the function, exported under its module's name
                inner = found.members.get(found.name)
                found = inner if inner is not None and not inner.is_alias else None
            if found is not None:
                return str(found.path)
        last = target.lstrip(".").split(".")
        suffix = ".".join(last)
        named = sorted(set(index.get(last[-1], [])))
        matches = [p for p in named if p.endswith("." + suffix)]
        if matches:
            return matches[0]
        if len(named) == 1:  # a name defined once in the package, given by another path
            return named[0]
        return None

    @staticmethod
    def _assigned(pkg: Any, obj: Any, target: str) -> bool:
        """Whether ``target`` names a module-level name griffe does not list (one assigned
        by unpacking, ``A, B = 1, 2``): such a name is shown as code, with no link."""
        parts = target.lstrip(".").split(".")
        module = obj if obj.is_module else obj.module
        if len(parts) > 1:
            found = _lookup(pkg, ".".join(parts[:-1]))
            if found is None or not found.is_module:
                dotted = ".".join([*module.path.split(".")[:-1], *parts[:-1]])
                found = _lookup(pkg, dotted)
            if found is None or not found.is_module:
                return False
            module = found
        pattern = re.compile(rf"^(?:\w+\s*,\s*)*{re.escape(parts[-1])}\s*(?:,\s*\w+\s*)*[:=]",
                             re.M)
        try:
            return bool(pattern.search(module.source))
        except Exception:
            return False

    def _rewrite(self, pkg: Any, obj: Any, text: str, index: dict[str, list[str]]) -> str:
        def role(match: re.Match[str]) -> str:
            target = re.sub(r"\s+", "", match.group(2))
            short = target.startswith("~")
            target = target.lstrip("~")
            if "<" in target and target.endswith(">"):  # :func:`title <target>`
                title, target = target.split("<", 1)
                target = target[:-1].strip()
                shown = title.strip()
            else:
                shown = target.split(".")[-1] if short else target.lstrip(".")
            if match.group(1) in ("func", "meth") and not shown.endswith(")"):
                shown += "()"
            path = self._resolve(pkg, obj, target, index, match.group(1))
            head = target.split(".")[0]
            if path is None and head and head != pkg.name and (
                    _external(head) or hasattr(builtins, head)):
                return f"`{shown}`"  # numpy, dask, the standard library, builtins
            if path is None and self._assigned(pkg, obj, target):
                return f"`{shown}`"
            if path is None:
                self.unresolved.append(f"{obj.path}: {match.group(0)}")
                if not any(part.startswith("_") for part in obj.path.split(".")):
                    # a public docstring (a private one is never rendered)
                    _log.warning("docstring of %s: %s names nothing in perfectplay",
                                 obj.path, match.group(0))
                return f"`{shown}`"
            return (f'<autoref identifier="{html.escape(path)}" optional>'
                    f"<code>{html.escape(shown)}</code></autoref>")

        text = _ROLE.sub(role, _no_reference_links(text))
        return _lists(_doctests(text))


def _no_reference_links(text: str) -> str:
    """``P[i][j]`` in prose is an index, not a Markdown reference link: the second bracket
    escaped outside code (backtick spans and indented or doctest lines are left alone)."""
    out = []
    for line in text.split("\n"):
        if line.lstrip().startswith((">>>", "...")) or line.startswith("    "):
            out.append(line)
            continue
        parts = re.split(r"(`+[^`]*`+)", line)
        out.append("".join(p if p.startswith("`") else p.replace("][", "]\\[")
                           for p in parts))
    return "\n".join(out)


_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+\.) \S")


def _lists(text: str) -> str:
    """A blank line before a list that follows a paragraph line (reST reads the list,
    Markdown only after a blank line); code fences left alone."""
    out: list[str] = []
    in_list = in_code = False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            in_code = not in_code
        item = not in_code and _ITEM.match(line) is not None
        if item and not in_list and out and out[-1].strip():
            out.append("")
        if item:
            in_list = True
        elif not line.strip() or not line.startswith((" ", "\t")):
            in_list = False
        out.append(line)
    return "\n".join(out)


def _doctests(text: str) -> str:
    """Doctest examples (``>>>`` and ``...`` lines, then their output up to a blank line)
    fenced as ``pycon`` code blocks."""
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][len(indent):] if lines[i].startswith(indent)
                             else lines[i].lstrip())
                i += 1
            indent = _fence_indent(out, indent)
            out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


_LIST_ITEM = re.compile(r"\s*(?:[-*+]|\d+\.)\s")


def _fence_indent(out: list[str], indent: str) -> str:
    """The indent of a doctest block's fence: its own inside a list item, else no deeper
    than the paragraph it follows. Examples indented under a line, as reST writes them
    (``Needs the extra::`` then four spaces), would be a Markdown indented code block and
    show the fence itself as text; that paragraph's ``::`` becomes ``:``."""
    prev = next((i for i in range(len(out) - 1, -1, -1) if out[i].strip()), None)
    if prev is None:
        return ""
    line = out[prev]
    if _LIST_ITEM.match(line):
        return indent
    if line.endswith("::"):
        out[prev] = line[:-1]
    return indent[: len(line) - len(line.lstrip())]
