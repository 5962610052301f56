"""net/sse.py: the SSE parser object. Whatever a server sends, it yields typed events and never raises, and where the
chunks are cut never changes which events it yields."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codexdoctor.common.outside_json import MAX_DEPTH, Shape
from codexdoctor.net.body import Oversize
from codexdoctor.net.deadline import Deadline
from codexdoctor.net.sse import (
    MAX_REASONING,
    BadField,
    Done,
    LineSplitter,
    Malformed,
    Overflow,
    Skipped,
    SseParser,
    Terminal,
    Update,
    bounded_lines,
)
from codexdoctor.net.stream import parse_sse

EVENT_TYPES = (Update, Terminal, Done, Malformed, Skipped, BadField, Overflow)
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def events_of(data: bytes, cuts: list[int] = (), max_line: int = 1024 * 1024) -> list[object]:
    """Every event the parser yields for `data` fed in pieces cut at `cuts`, then closed."""
    parser = SseParser(max_line)
    out: list[object] = []
    start = 0
    for cut in sorted(set(cuts)) + [len(data)]:
        out += parser.feed(data[start:cut])
        start = cut
    return out + parser.close()


def one(data: str) -> object:
    [event] = events_of(data.encode())
    return event


# ---- every wrong shape is a typed event ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "data, detail",
    [
        ("data: {not json\n\n", "JSON"),
        ("data: [1, 2]\n\n", "an array, not an object"),
        ('data: "text"\n\n', "a string, not an object"),
        ("data: 12\n\n", "not an object"),
        ("data: " + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n\n", "deep"),
    ],
)
def test_data_that_is_no_json_object_is_a_malformed_event(data, detail):
    event = one(data)
    assert isinstance(event, Malformed) and detail.lower() in event.detail.lower()


def test_a_type_that_is_not_a_string_is_skipped_with_its_shape():
    event = one('data: {"type": 7, "delta": "x"}\n\n')
    assert event == Skipped((Shape("type", "a string", "an integer"),))


@pytest.mark.parametrize(
    "body, got",
    [('{"type": "response.completed"}', None), ('{"type": "response.completed", "response": null}', "null")],
)
def test_a_completion_without_its_response_is_skipped_as_codex_skips_it(body, got):
    event = one(f"data: {body}\n\n")
    assert isinstance(event, Skipped) and event.completion == (Shape("response", "an object", got),)


def test_a_completion_codex_cannot_read_is_a_terminal_that_says_why():
    event = one('data: {"type": "response.completed", "response": {"usage": {"input_tokens": "12"}}}\n\n')
    assert isinstance(event, Terminal) and event.name == "response.completed"
    assert Shape("response.id", "a string", None) in event.completion
    assert any(s.path == "response.usage.input_tokens" for s in event.completion)


def test_values_of_the_wrong_type_ride_along_as_shapes_and_are_not_used():
    delta = one('data: {"type": "response.output_text.delta", "delta": 5}\n\n')
    assert delta == Update("response.output_text.delta", token="", shapes=(Shape("delta", "a string", "an integer"),))
    item = one('data: {"type": "response.output_item.done", "item": "call"}\n\n')
    assert (
        isinstance(item, Update) and not item.function_call and item.shapes == (Shape("item", "an object", "a string"),)
    )
    chat = one('data: {"choices": {"delta": "x"}}\n\n')
    assert (
        isinstance(chat, Update) and chat.token is None and chat.shapes == (Shape("choices", "an array", "an object"),)
    )


def item_event(item: dict[str, str]) -> str:
    return "data: " + json.dumps({"type": "response.output_item.done", "item": item}) + "\n\n"


def test_the_readable_events_say_what_they_carry():
    call = one('data: {"type": "response.output_item.done", "item": {"type": "function_call", "call_id": "c1"}}\n\n')
    assert isinstance(call, Update) and call.function_call and call.call_id == "c1"
    lost = one('data: {"type": "response.output_item.done", "item": {"type": "function_call"}}\n\n')
    assert isinstance(lost, Update) and lost.function_call and lost.call_id is None
    secret = "e" * 10
    reasoning = one(item_event({"type": "reasoning", "id": "r", "encrypted_content": secret}))
    assert isinstance(reasoning, Update) and reasoning.reasoning == {
        "id": "r",
        "summary": None,
        "encrypted_content": secret,
    }
    too_long = one(item_event({"type": "reasoning", "encrypted_content": "e" * (MAX_REASONING + 1)}))
    assert isinstance(too_long, Update) and too_long.reasoning is None
    chunk = one('data: {"choices": [{"delta": {"content": "hi"}, "finish_reason": "length"}], "usage": {"x": 1}}\n\n')
    assert chunk == Update(None, token="hi", usage={"x": 1}, length=True)
    assert one("data: [DONE]\n\n") == Done()


@pytest.mark.parametrize(
    "body, name, error, reason",
    [
        ('{"type": "error", "error": {"message": "m"}}', "error", {"message": "m"}, None),
        ('{"error": "plain"}', "error", {"error": "plain"}, None),
        ('{"type": "response.failed", "response": {}}', "response.failed", {"message": "response.failed"}, None),
        (
            '{"type": "response.incomplete", "response": {"incomplete_details": {"reason": "content_filter"}}}',
            "response.incomplete",
            None,
            "content_filter",
        ),
    ],
)
def test_every_ending_is_a_terminal_event(body, name, error, reason):
    event = one(f"data: {body}\n\n")
    assert isinstance(event, Terminal) and (event.name, event.error, event.incomplete_reason) == (name, error, reason)


def test_the_event_name_stands_in_for_a_missing_type():
    event = one('event: response.output_text.delta\ndata: {"delta": "x"}\n\n')
    assert event == Update("response.output_text.delta", token="x")


def test_lines_sse_does_not_know_are_counted_not_events():
    assert events_of(b"id: 1\nretry: 5\nnonsense\n: keep-alive\n\n") == [
        BadField("id"),
        BadField("retry"),
        BadField("nonsense"),
    ]


def test_an_endless_line_is_an_overflow_and_the_parser_reads_no_further():
    events = events_of(b'data: {"type":"x"}\n\n' + b"a" * 100 + b'\n\ndata: {"type":"y"}\n\n', max_line=50)
    assert events == [Update("x"), Overflow("an SSE line longer than 50 bytes")]
    parser = SseParser(max_line=10)
    assert parser.feed(b"data: " + b"x" * 20)[0].__class__ is Overflow
    assert parser.feed(b"\n\ndata: {}\n\n") == [] and parser.close() == []


def test_one_events_data_lines_past_the_cap_are_an_overflow():
    assert events_of(b"data: 12345\ndata: 12345\ndata: 12345\n\n", max_line=12) == [
        Overflow("one event's data longer than 12 characters")
    ]


def test_the_last_event_counts_without_the_blank_line_after_it():
    assert events_of(b'data: {"type": "response.created"}') == [Update("response.created")]
    assert events_of(b'data: {"type": "a"}\n') == [Update("a")]


# ---- chunk boundaries ----------------------------------------------------------------------------------------------
LINE_ENDS = st.sampled_from([b"\n", b"\r", b"\r\n"])
FIELD = st.sampled_from([b"data: ", b"data:", b"event: ", b"id: ", b": ", b"", b"retry:"])
PAYLOAD = st.one_of(
    st.sampled_from(
        [
            b'{"type": "response.output_text.delta", "delta": "h\xc3\xa9"}',
            b'{"type": "response.completed", "response": {"id": "r"}}',
            b'{"type": "response.completed", "response": "no"}',
            b'{"type": "response.output_item.done", "item": {"type": "function_call", "call_id": "c"}}',
            b'{"choices": [{"delta": {"content": "x"}}]}',
            b'{"type": 3}',
            b"[DONE]",
            b"{broken",
            b"response.output_text.delta",
        ]
    ),
    st.binary(max_size=12),
)
STREAM = st.lists(st.tuples(FIELD, PAYLOAD, LINE_ENDS), max_size=12).map(
    lambda parts: b"".join(field + payload + end for field, payload, end in parts)
)


@SETTINGS
@given(STREAM, st.lists(st.integers(min_value=0, max_value=400), max_size=8), st.sampled_from([8, 40, 1024 * 1024]))
def test_chunk_boundaries_anywhere_give_the_same_events(data, cuts, max_line):
    whole = events_of(data, max_line=max_line)
    assert events_of(data, [c for c in cuts if c <= len(data)], max_line) == whole
    assert events_of(data, list(range(len(data))), max_line) == whole  # one byte at a time
    assert all(isinstance(event, EVENT_TYPES) for event in whole)


@SETTINGS
@given(st.binary(max_size=300), st.lists(st.integers(min_value=0, max_value=300), max_size=6))
def test_any_bytes_at_all_give_typed_events_and_never_raise(data, cuts):
    events = events_of(data, [c for c in cuts if c <= len(data)], max_line=64)
    assert all(isinstance(event, EVENT_TYPES) for event in events)
    assert events == events_of(data, max_line=64)


def test_a_crlf_cut_between_its_two_bytes_is_one_line_end():
    # Before the parser object, a CR ending one chunk and its LF opening the next read as an empty line: the event
    # was dispatched early, split in two.
    data = b'data: {"type":\r\ndata: "response.created"}\r\n\r\n'
    cut = data.index(b"\n")
    assert events_of(data, [cut]) == events_of(data) == [Update("response.created")]
    assert list(bounded_lines([data[:cut], data[cut:]])) == list(bounded_lines([data]))


def test_bounded_lines_still_raises_past_its_cap():
    with pytest.raises(Oversize):
        list(bounded_lines([b"x" * 11], max_line=10))
    with pytest.raises(Oversize):
        list(bounded_lines([b"x" * 11 + b"\n"], max_line=10))
    assert list(bounded_lines([b"x" * 10 + b"\r", b"\ny"], max_line=10)) == ["x" * 10, "y"]


def test_the_splitter_keeps_utf8_cut_inside_a_character():
    splitter = LineSplitter()
    text = "上下文\n".encode()
    assert splitter.feed(text[:2]) == [] and splitter.feed(text[2:]) == ["上下文"]


# ---- parse_sse reads the parser's events into StreamStats -----------------------------------------------------------
def test_parse_sse_counts_what_the_events_say():
    lines = [
        'data: {"type": "response.output_text.delta", "delta": 5}',
        "",
        "data: {broken",
        "",
        "id: 3",
        'data: {"type": "response.output_item.done", "item": {"type": "function_call", "call_id": ""}}',
        "",
        'data: {"type": "response.output_text.delta", "delta": "ok"}',
        "",
        'data: {"type": "response.completed", "response": {"id": "r", "usage": {"input_tokens": 1, "output_tokens": 2, "total_tokens": 3}}}',
        "",
        'data: {"type": "response.output_text.delta", "delta": "after the end"}',
        "",
    ]
    ticks = iter(range(100))
    stats = parse_sse(lines, 0.0, lambda: next(ticks) / 1000, 0, Deadline(60))
    assert (stats.events, stats.terminal, stats.cut, stats.bad_lines, stats.text) == (
        5,
        "response.completed",
        None,
        2,
        "ok",
    )
    assert stats.tool_call_ids == ("",) and stats.usage == {"input_tokens": 1, "output_tokens": 2, "total_tokens": 3}
    assert stats.shapes == (Shape("delta", "a string", "an integer"),) and stats.completion_problems == ()
    assert stats.bad_detail is not None and stats.first_token_ms is not None


def test_a_read_that_waits_the_idle_limit_ends_the_stream_as_idle():
    from codexdoctor.net.body import StreamCut

    def lines():
        yield 'data: {"type": "response.created"}'
        yield ""
        raise StreamCut("idle")

    assert parse_sse(lines(), 0.0, lambda: 0.0, 5.0, Deadline(60)).cut == "idle"


def test_messages_that_are_json_arrive_whole_across_many_data_lines():
    body = json.dumps({"type": "response.output_text.delta", "delta": "two lines"}, indent=1).encode()
    data = b"".join(b"data: " + line + b"\n" for line in body.splitlines()) + b"\n"
    assert events_of(data) == [Update("response.output_text.delta", token="two lines")]
