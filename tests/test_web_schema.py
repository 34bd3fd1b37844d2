"""/api/schema says what the API sends: every example body it lists is posted and each answer
is checked against the answer's schema in that document (with the small JSON Schema checker
below, which refuses any keyword it does not know, so it cannot pass by ignoring one) and
against the pydantic model the document names (strict, no field but those documented);
every field of every body and answer has a type and a description, and /docs shows both."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from perfectplay import registry  # noqa: E402
from perfectplay.web import answers  # noqa: E402
from perfectplay.web.app import create_app, type_words  # noqa: E402

#: Keywords that only annotate a schema: nothing to check.
ANNOTATIONS = {"title", "description", "default", "examples"}


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


@pytest.fixture(scope="module")
def doc(client):
    return client.get("/api/schema").json()


def _resolve(schema: dict[str, Any], doc: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        ref = schema["$ref"]
        assert ref.startswith("#/components/schemas/"), ref
        schema = doc["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    return schema


def _is(kind: str, value: Any) -> bool:
    return {"null": value is None, "boolean": isinstance(value, bool),
            "string": isinstance(value, str), "array": isinstance(value, list),
            "object": isinstance(value, dict),
            "integer": isinstance(value, int) and not isinstance(value, bool),
            "number": isinstance(value, int | float) and not isinstance(value, bool),
            }[kind]


def check(value: Any, schema: dict[str, Any], doc: dict[str, Any], where: str = "$") -> None:
    """Assert ``value`` is valid for ``schema`` (the subset of JSON Schema the document
    uses; an unknown keyword fails the test rather than being skipped)."""
    schema = _resolve(schema, doc)
    known = ANNOTATIONS | {"type", "properties", "required", "additionalProperties",
                           "items", "anyOf", "enum", "const", "minimum", "maximum",
                           "minLength", "maxLength", "minItems", "maxItems"}
    assert set(schema) <= known, f"{where}: keywords {set(schema) - known} not checked"
    if "anyOf" in schema:
        fits = []
        for option in schema["anyOf"]:
            try:
                check(value, option, doc, where)
                fits.append(option)
            except AssertionError:
                pass
        assert fits, f"{where}: {value!r:.80} fits none of {schema['anyOf']}"
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        assert any(_is(k, value) for k in kinds), f"{where}: {value!r:.80} is not {kinds}"
    if "enum" in schema:
        assert value in schema["enum"], f"{where}: {value!r} not in {schema['enum']}"
    if "const" in schema:
        assert value == schema["const"], where
    if "minimum" in schema:
        assert value >= schema["minimum"], where
    if "maximum" in schema:
        assert value <= schema["maximum"], where
    if isinstance(value, dict):
        props = schema.get("properties", {})
        missing = set(schema.get("required", ())) - set(value)
        assert not missing, f"{where}: {sorted(missing)} missing"
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                check(item, props[key], doc, f"{where}.{key}")
            elif extra is False:
                raise AssertionError(f"{where}: {key!r} is not in the schema")
            elif isinstance(extra, dict):
                check(item, extra, doc, f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for k, item in enumerate(value):
            check(item, schema["items"], doc, f"{where}[{k}]")


def _operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, op) for path, ops in doc["paths"].items()
            for method, op in ops.items()]


def _model(schema: dict[str, Any]) -> type[answers.Answer]:
    name = schema["$ref"].rsplit("/", 1)[-1]
    model = getattr(answers, name)
    assert model in answers.ANSWERS
    return model


def test_the_schema_lists_every_games_endpoints_and_example(doc):
    for spec in registry.games("seed"):
        kinds = ("analyze", "play") if spec.play is not None else ("analyze",)
        for kind in kinds:
            op = doc["paths"][f"/api/games/{spec.name}/{kind}"]["post"]
            example = op["requestBody"]["content"]["application/json"]["example"]
            assert example == {**spec.example_body(), **({"moves": []} if kind == "play"
                                                         else {})}


@pytest.mark.parametrize("path", ["/api/games"] + [
    f"/api/games/{spec.name}/{kind}" for spec in registry.games("seed")
    for kind in (("analyze", "play") if spec.play is not None else ("analyze",))])
def test_every_example_is_answered_as_the_schema_says(client, doc, path):
    """Post the example the schema lists (GET /api/games), and check the answer against
    the document's 200 schema and against the model it names."""
    (method, op), = doc["paths"][path].items()
    if method == "post":
        example = op["requestBody"]["content"]["application/json"]["example"]
        check(example, op["requestBody"]["content"]["application/json"]["schema"], doc)
        r = client.post(path, json=example)
    else:
        r = client.get(path)
    assert r.status_code == 200, r.text
    schema = op["responses"]["200"]["content"]["application/json"]["schema"]
    check(r.json(), schema, doc)
    _model(schema).model_validate_json(r.content, strict=True)


def test_the_answers_keys_are_the_documented_ones(doc):
    """The two mistakes of the hand-written schema: the analyze answer's text is
    ``explanation`` (not ``explain``) and a refusal's body is ``{"detail"}`` (not
    ``{"error"}``)."""
    analyze = doc["paths"]["/api/games/coins/analyze"]["post"]["responses"]
    props = _resolve(analyze["200"]["content"]["application/json"]["schema"], doc)
    assert {"result", "explanation", "drawing"} <= set(props["properties"])
    assert "explain" not in props["properties"]
    for status in ("413", "422", "503"):
        problem = _resolve(analyze[status]["content"]["application/json"]["schema"], doc)
        assert list(problem["properties"]) == ["detail"] and problem["required"] == ["detail"]
    assert "Retry-After" in analyze["503"]["headers"]


@pytest.mark.parametrize("body,status", [
    ({"row": [1, 2], "bogus": 1}, 422), ({"row": "seven"}, 422), ({}, 422),
    ({"text": "x" * 1_000_001}, 413)])
def test_refusals_are_answered_as_the_schema_says(client, doc, body, status):
    r = client.post("/api/games/coins/analyze", json=body)
    assert r.status_code == status, r.text
    op = doc["paths"]["/api/games/coins/analyze"]["post"]
    check(r.json(), op["responses"][str(status)]["content"]["application/json"]["schema"],
          doc)
    answers.Problem.model_validate_json(r.content, strict=True)


def _fields(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """Every field of every body and every answer: (where, name, its schema)."""
    out = []
    for path, method, op in _operations(doc):
        if "requestBody" in op:
            schema = op["requestBody"]["content"]["application/json"]["schema"]
            out += [(f"{method} {path}", k, v) for k, v in schema["properties"].items()]
    for name, schema in doc["components"]["schemas"].items():
        out += [(name, k, v) for k, v in schema.get("properties", {}).items()]
    return out


def _typed(schema: dict[str, Any]) -> bool:
    if "anyOf" in schema:
        return all(_typed(s) for s in schema["anyOf"])
    return "type" in schema or "$ref" in schema or "enum" in schema or "const" in schema


def test_every_field_has_a_type_and_a_description(doc):
    fields = _fields(doc)
    assert len(fields) > 50
    untyped = [(w, k) for w, k, v in fields if not _typed(v)]
    undescribed = [(w, k) for w, k, v in fields if len(v.get("description", "")) < 10]
    assert not untyped and not undescribed, (untyped, undescribed)


def test_docs_show_each_fields_type_and_description(client, doc):
    page = client.get("/docs").text
    for where, name, schema in _fields(doc):
        words = type_words(schema)
        assert words.strip()
        shown = re.search(rf"<li><code>{re.escape(html.escape(name))}</code> "
                          rf"<i>{re.escape(html.escape(words))}</i>( \(required\))?: "
                          rf"{re.escape(html.escape(schema['description']))}</li>", page)
        assert shown, (where, name)
    assert "<code>row</code> <i>list of integer or null</i>: The instance as numbers" in page
    assert page.count("curl -s ") == sum(1 for _, method, op in _operations(doc)
                                         if method == "post" or "x-example" in op)
