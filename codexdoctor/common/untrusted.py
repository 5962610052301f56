"""Text from outside (server bodies and events, pastes, session logs, config values) made safe to cut and to show.

Two rules hold for every such string, whatever path it takes to the screen:

- `clip` never splits a token. A cut in the middle of a key leaves a piece that no redaction can recognise
  (the piece is neither the key nor key-shaped), so a cut that lands inside a run of token characters drops
  the whole run: later redaction then sees the whole key or nothing of it.
- `sanitize` removes what would drive the terminal: ESC sequences (CSI colours, OSC window titles, OSC 8 links,
  OSC 52 clipboard writes, DCS/APC/PM/SOS strings), the one-byte C1 forms (U+009B CSI, U+009D OSC, …), other
  C0/C1 controls and the bidirectional overrides that reorder what a line seems to say. A control that is not
  part of a sequence is shown visibly (`\\x07`), so the reader still sees that something was there.

`report.build` applies both (with the run's redactor) to every string a report carries, so renderers never
meet raw outside text; the few places that print before a report exists (progress lines, error messages) call
`sanitize` themselves.
"""

from __future__ import annotations

import re

# ESC followed by a string-introducer (] OSC, P DCS, _ APC, ^ PM, X SOS) runs to its terminator (BEL or ST:
# ESC \ or U+009C); an unterminated one runs to the end of the text (a terminal would swallow it all too).
_ESC_STRING = r"(?:\x1b[\]P_^X]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c|(?=\x1b)|$)"
# CSI (ESC [ or U+009B): parameters and intermediates, then one final byte.
_CSI = r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
# Any other ESC sequence: intermediates then one final byte (ESC c resets the terminal, ESC ( B picks a charset).
_ESC_OTHER = r"\x1b[\x20-\x2f]*[\x30-\x7e]?"
_SEQUENCE = re.compile(f"{_ESC_STRING}|{_CSI}|{_ESC_OTHER}")
# Left after the sequences: lone C0/C1 controls, DEL, the bidi controls (Trojan Source, CVE-2021-42574), and lone
# surrogates (a log's "\ud800" decodes to one; no encoder can write it, so it would crash the output).
_LONE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_LONE_OR_NEWLINE = re.compile(f"[{_LONE}\t\n\r]")
_LONE_ONLY = re.compile(f"[{_LONE}\t]")
_ANY = re.compile(f"[{_LONE}\t\n\r\x1b]")


def _visible(match: re.Match[str]) -> str:
    c = match.group(0)
    if c == "\t":
        return " "
    if c in "\n\r":
        return " "
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def sanitize(text: str, newlines: bool = False) -> str:
    """`text` with no terminal control left in it. `newlines=True` keeps "\\n" (where the format has lines);
    otherwise every line break becomes a space. Fast when there is nothing to do (one regex search)."""
    if not text or _ANY.search(text) is None:
        return text
    text = _SEQUENCE.sub("", text)
    if newlines:
        text = text.replace("\r\n", "\n")
        return _LONE_ONLY.sub(_visible, text.replace("\r", "\n"))
    return _LONE_OR_NEWLINE.sub(_visible, text)


# What can be part of a secret: everything but white space and the punctuation that delimits values in JSON,
# HTTP headers and prose. `=`, `:`, `/`, `.`, `+`, `~`, `-`, `_` stay in the run (base64 keys, JWTs, URLs).
_DELIMITERS = frozenset(" \t\n\r\"'`<>()[]{},;|\u3000，。；：“”‘’（）")


def clip(text: str, limit: int, ellipsis: str = "…") -> str:
    """At most `limit` characters of `text` (the ellipsis included), never cutting inside a token: when the cut
    falls inside a run of token characters, the whole run is dropped (see the module's docstring)."""
    if len(text) <= limit:
        return text
    cut = max(0, limit - len(ellipsis))
    if cut and cut < len(text) and text[cut - 1] not in _DELIMITERS and text[cut] not in _DELIMITERS:
        while cut and text[cut - 1] not in _DELIMITERS:
            cut -= 1
    return text[:cut].rstrip() + ellipsis


_REQUEST_ID_IN_TEXT = re.compile(r"request[ _-]?id[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9][A-Za-z0-9_.:\-]{5,80})", re.I)


def request_id_in_text(text: str) -> str | None:
    """`request id: …` inside an error text: new-api and one-api write it there, and so does Codex in its own error
    lines (`…, url: …, request id: 07120c03…`)."""
    m = _REQUEST_ID_IN_TEXT.search(text or "")
    return m.group(1) if m else None
