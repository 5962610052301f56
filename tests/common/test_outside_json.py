"""common/outside_json.py: depth-limited parsing and total, typed accessors for JSON from outside (issue 36, item 4)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from codexdoctor.common import outside_json as outside
from codexdoctor.common.outside_json import INT64, MAX_DEPTH, STRING, Fields, Shape

# One value of every JSON type (and the look-alikes a provider sends instead): each accessor is tried on each.
EVERY_TYPE = {
    "null": None,
    "true": True,
    "false": False,
    "zero": 0,
    "int": 12,
    "negative": -3,
    "big": 2**70,
    "float": 1.5,
    "whole float": 12.0,
    "digits": "12",
    "empty string": "",
    "string": "ok",
    "empty array": [],
    "array": [1, "a"],
    "empty object": {},
    "object": {"a": 1},
}


@pytest.mark.parametrize("name", sorted(EVERY_TYPE))
def test_every_accessor_on_every_type_returns_its_type_or_none(name):
    value = EVERY_TYPE[name]
    is_int = isinstance(value, int) and not isinstance(value, bool)
    assert outside.obj(value) == (value if isinstance(value, dict) else None)
    assert outside.items(value) == (value if isinstance(value, list) else None)
    assert outside.text(value) == (value if isinstance(value, str) else None)
    assert outside.integer(value) == (value if is_int else None)
    # a path through a value of any type: the type asked for or None, never an AttributeError, IndexError, …
    typed = {outside.obj: dict, outside.items: list, outside.text: str, outside.integer: int}
    for path in (("a",), (0,), ("a", 0, "b"), (-1,), (5,)):
        for read, want in typed.items():
            got = read(value, *path)
            assert got is None or (isinstance(got, want) and not isinstance(got, bool))
        assert outside.at(value, "a", 0, "b") is None and outside.at(value, 5) is None
    wrapped = {"k": [value]}
    assert outside.at(wrapped, "k", 0) == value
    assert outside.integer(wrapped, "k", 0) == (value if is_int else None)


def test_integer_takes_no_bool_float_or_digits():
    body = {"n": 12, "b": True, "f": 12.0, "s": "12"}
    assert [outside.integer(body, k) for k in ("n", "b", "f", "s")] == [12, None, None, None]


def test_paths_walk_objects_and_arrays():
    body = {"choices": [{"delta": {"content": "hi"}}], "usage": "n/a"}
    assert outside.text(body, "choices", 0, "delta", "content") == "hi"
    assert outside.text(body, "choices", -1, "delta", "content") == "hi"
    assert outside.obj(body, "usage") is None and outside.text(body, "usage") == "n/a"
    assert outside.at(body, "choices", 1) is None and outside.at(body, "usage", "input_tokens") is None


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("1", 0),
        ('"[[["', 0),
        ("[]", 1),
        ('{"a": [1, {"b": []}]}', 4),
        ('{"a": "]]]]", "b": [[1]]}', 3),
        (r'["\"[[[", ["\\"]]', 2),  # an escaped quote and an escaped backslash before the closing quote
        ('"unterminated [[[[', 0),
        ("[" * 500 + "]" * 500, 500),
        ("not json {[(", 2),
    ],
)
def test_depth_skips_strings_and_escapes(text, depth):
    assert outside.depth(text) == depth
    assert outside.depth(text.encode()) == depth


def test_depth_of_a_megabyte_of_escapes_is_read_in_one_pass():
    """Quotes and backslashes arranged so that a backtracking string pattern would retry from every quote."""
    for text in ('"' + '\\"' * 500_000, '"' + '\\"' * 500_000 + "\\", '["' + "\\" * 999_999 + "]"):
        assert outside.depth(text) in (0, 1)


def test_parse_reads_to_the_depth_codex_reads_and_no_deeper():
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    too_deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    assert outside.parse(ok).malformed is None and outside.parse(ok).value is not None
    deep = outside.parse(too_deep)
    assert deep.value is None and deep.malformed == "JSON nested 128 levels deep (Codex reads at most 127)"
    assert (deep.depth, deep.limit, deep.error) == (128, 127, None)  # the same as data: net/said.py words it


@pytest.mark.parametrize("data", ["[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000])
def test_parse_of_100000_levels_is_malformed_not_a_recursion_error(data):
    for given_data in (data, data.encode()):
        parsed = outside.parse(given_data)
        assert parsed.value is None and parsed.malformed == (
            "JSON nested 100,000 levels deep (Codex reads at most 127)"
        )


@pytest.mark.parametrize(
    ("data", "start"),
    [("", "not JSON (Expecting value"), ("{", "not JSON (Expecting property"), (b"\xff", "not JSON (")],
)
def test_parse_of_broken_json_is_malformed(data, start):
    parsed = outside.parse(data)
    assert parsed.value is None and parsed.malformed.startswith(start)


def test_parse_takes_bytes_and_a_parse_int():
    assert outside.parse(b'{"n": 7}').value == {"n": 7}
    assert outside.parse('{"n": 7}', parse_int=lambda s: -int(s)).value == {"n": -7}


def test_first_object_in_a_line():
    assert outside.first_object('request failed: {"error": {"message": "m"}} (retrying)') == {"error": {"message": "m"}}
    assert outside.first_object("no {json here} {") is None
    assert outside.first_object('x {"a": ' + "[" * 200 + "]" * 200 + "}") is None  # deeper than Codex reads


def test_kind_names_every_json_type():
    assert [outside.kind(EVERY_TYPE[k]) for k in ("null", "true", "int", "float", "string", "array", "object")] == [
        "null",
        "a boolean",
        "an integer",
        "a decimal number",
        "a string",
        "an array",
        "an object",
    ]


COMPLETED = Fields(
    required={"id": STRING},
    optional={"usage": Fields(required={"input_tokens": INT64}, optional={"details": Fields()})},
)


@pytest.mark.parametrize(
    ("value", "sentences"),
    [
        ({"id": "r", "usage": {"input_tokens": 1}}, []),
        ({"id": "r", "usage": None, "extra": [1]}, []),
        ("ok", ["the provider sent `response` as a string, not an object"]),
        ({"usage": {"input_tokens": 1}}, ["the provider left out `response.id`"]),
        ({"id": "r", "usage": "n/a"}, ["the provider sent `response.usage` as a string, not an object"]),
        (
            {"id": 5, "usage": {"input_tokens": "12", "details": []}},
            [
                "the provider sent `response.id` as an integer, not a string",
                "the provider sent `response.usage.input_tokens` as a string, not a 64-bit integer",
                "the provider sent `response.usage.details` as an array, not an object",
            ],
        ),
        (
            {"id": "r", "usage": {"input_tokens": 2**63}},
            ["the provider sent `response.usage.input_tokens` as an integer, not a 64-bit integer"],
        ),
        (
            {"id": "r", "usage": {"input_tokens": True}},
            ["the provider sent `response.usage.input_tokens` as a boolean, not a 64-bit integer"],
        ),
    ],
)
def test_shape_problems_say_what_came_instead(value, sentences):
    assert [s.sentence() for s in outside.shape_problems(value, COMPLETED, "response")] == sentences


def test_shape_sentence_names_who_sent_it():
    assert Shape("payload.info", "an object", "a string").sentence("the session log") == (
        "the session log sent `payload.info` as a string, not an object"
    )
    assert Shape("", "an object", "null").sentence() == "the provider sent the value as null, not an object"


def test_keep_adds_each_shape_once_and_at_most_a_few():
    found: list[Shape] = []
    outside.keep(found, [Shape("a", "x", "y")] * 3)
    outside.keep(found, [Shape(str(i), "x", "y") for i in range(100)])
    assert len(found) == outside.MAX_SHAPES and found[0] == Shape("a", "x", "y")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@given(JSON, st.lists(st.one_of(st.sampled_from(["a", "id", "usage", ""]), st.integers(-3, 3)), max_size=4))
def test_accessors_are_total(value, path):
    for read in (outside.at, outside.obj, outside.items, outside.text, outside.integer):
        read(value, *path)
    outside.shape_problems(value, COMPLETED)


@given(JSON)
def test_parse_reads_what_json_writes_and_depth_agrees(value):
    text = json.dumps(value)
    assert outside.parse(text).value == value
    assert outside.depth(text) == _depth(value)


@given(st.text(alphabet='[]{}"\\ ,:ab1', max_size=200))
def test_parse_never_raises_on_any_text(text):
    parsed = outside.parse(text)
    assert parsed.malformed is None or parsed.value is None


def _depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0
