"""net/kinds.py: failure kinds are a closed enum that still reads, compares and serialises as the plain string."""

from __future__ import annotations

import json

import pytest

from codexdoctor.net.classify import Classified, classify
from codexdoctor.net.exchange import Exchange
from codexdoctor.net.kinds import TRANSPORT_FAILURES, FailureKind, failure_kind


def test_a_kind_is_its_string_everywhere_a_string_was_used():
    kind = FailureKind.QUOTA
    assert kind == "quota" and "quota" == kind and kind in ("quota", "payment") and {"quota": 1}[kind] == 1
    assert str(kind) == f"{kind}" == format(kind) == "quota" and f"{kind:>7}" == "  quota"
    assert (
        json.dumps({kind: [kind]}) == '{"quota": ["quota"]}' and json.dumps({kind: kind}, indent=1).count("quota") == 2
    )
    assert sorted([FailureKind.TLS, "dns", FailureKind.REFUSED]) == ["dns", "refused", "tls"]


def test_the_set_is_closed():
    with pytest.raises(ValueError):
        FailureKind("qouta")
    with pytest.raises(ValueError):
        Classified("qouta")
    with pytest.raises(ValueError):
        Exchange("GET", "u", failure="dsn")
    with pytest.raises(ValueError):
        failure_kind("quota")  # a kind, but not one the transport fails with


def test_strings_from_callers_become_members():
    ex = Exchange("GET", "u", failure="timeout")
    assert ex.failure is FailureKind.TIMEOUT and ex.failure in TRANSPORT_FAILURES
    assert Classified("codex_rejected").kind is FailureKind.CODEX_REJECTED
    assert Exchange("GET", "u").failure is None


def test_classify_names_members_only():
    assert classify(Exchange("GET", "u", failure="dns")).kind is FailureKind.DNS
    assert (
        classify(Exchange("POST", "u", 429, body_json={"error": {"code": "insufficient_quota"}})).kind
        is FailureKind.QUOTA
    )
    assert classify(Exchange("POST", "u", 200, body_json={"ok": True})).kind is FailureKind.OK
