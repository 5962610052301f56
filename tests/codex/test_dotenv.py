"""`$CODEX_HOME/.env` read the way Codex 0.171.0 reads it (dotenvy's `from_path_iter`, then Codex's filter).

Every case marked "real" was run against the real Codex CLI 0.171.0 by scripts/crosscheck_config_semantics.py (the
".env" cases): the expectation is what Codex did, not what dotenvy's documentation suggests.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codexdoctor.codex.dotenvfile import logical_lines, parse
from tests.conftest import TAOTOKEN, codes, offline_report, write_config
from tests.timing import HANG_S, grows_linearly

K = "sk-crosscheck-0123456789abcdef"

CASES = [  # (name, .env text with {k} for the key, shell variables, what Codex sets SIM_API_KEY to; None: not set)
    ("spaces around = (real)", "SIM_API_KEY = {k}\n", {}, K),
    ("comment after (real)", "SIM_API_KEY={k} # my key\n", {}, K),
    ("single quotes (real)", "SIM_API_KEY='{k}'\n", {}, K),
    ("double quotes (real)", 'SIM_API_KEY="{k}"\n', {}, K),
    ("export (real)", "export SIM_API_KEY={k}\n", {}, K),
    ("trailing spaces (real)", "SIM_API_KEY={k}   \n", {}, K),
    ("CRLF (real)", "SIM_API_KEY={k}\r\n", {}, K),
    ("$OTHER from .env (real)", "OTHER={k}\nSIM_API_KEY=$OTHER\n", {}, K),
    ("${OTHER} from the shell (real)", "SIM_API_KEY=${OTHER}\n", {"OTHER": K}, K),
    ("unterminated quote (real)", 'SIM_API_KEY="{k}\n', {}, None),
    ("unterminated quote before (real)", 'OTHER="abc\nSIM_API_KEY={k}\n', {}, None),
    ("bad line before (real)", "this is not a variable\nSIM_API_KEY={k}\n", {}, K),
    ("colon (real)", "SIM_API_KEY: {k}\n", {}, None),
    ("apostrophe in a comment (real)", "# Don't share this file\nSIM_API_KEY={k}\n", {}, K),
    ("space inside the value (real)", "SIM_API_KEY={k} extra\n", {}, None),
    ("dollar inside the value (real)", "SIM_API_KEY=sk-$crosscheck-0123456789abcdef\n", {}, "sk--0123456789abcdef"),
    ("BOM, key first (real)", "\ufeffSIM_API_KEY={k}\nOTHER=1\n", {}, None),
    ("BOM, key second (real)", "\ufeffOTHER=1\nSIM_API_KEY={k}\n", {}, K),
    ("BOM, comment first (real)", "\ufeff# keys\nSIM_API_KEY={k}\n", {}, K),
    ("$OTHER_KEY is $OTHER then _KEY (real)", "OTHER_KEY={k}\nSIM_API_KEY=$OTHER_KEY\n", {}, "_KEY"),
    ("${OTHER_KEY} (real)", "OTHER_KEY={k}\nSIM_API_KEY=${OTHER_KEY}\n", {}, K),
    ("single quotes keep $", "SIM_API_KEY='{k}$x'\n", {}, K + "$x"),
    ("escaped $", "SIM_API_KEY=\\$x\n", {}, "$x"),
    (
        "an earlier line wins over the shell in substitution",
        "OTHER=from-file\nSIM_API_KEY=$OTHER\n",
        {"OTHER": "from-shell"},
        "from-file",
    ),
    ("a quote spanning lines", 'SIM_API_KEY="{k}\nmore"\n', {}, K + "\nmore"),
    ("an apostrophe in an unquoted value swallows the next line", "A=it's\nSIM_API_KEY={k}\n", {}, None),
    ("inline # without a space is part of the value", "SIM_API_KEY={k}#x\n", {}, K + "#x"),
]


@pytest.mark.parametrize("name,text,env,expected", CASES, ids=[c[0] for c in CASES])
def test_dotenv_as_codex_reads_it(name, text, env, expected):
    values = parse(text.replace("{k}", K), env)[0]
    assert values.get("SIM_API_KEY") == expected


def test_the_shell_value_is_overridden_by_an_earlier_line_for_substitution():
    """Codex sets each line's variable before reading the next, so `$OTHER` sees the file's OTHER, not the shell's
    (the case above): the process environment at that line."""
    values = parse("OTHER=file\nKEY=$OTHER\n", {"OTHER": "shell"})[0]
    assert values == {"OTHER": "file", "KEY": "file"}


def test_codex_prefixed_names_are_not_set_in_any_case_but_can_be_substituted():
    values, reserved, *_ = parse("codex_home=/x\nCODEX_Y=v\nKEY=${CODEXY}$CODEX_Y\n")
    assert "codex_home" not in values and reserved == ("codex_home", "CODEX_Y")
    assert values["KEY"] == "_Y"  # $CODEX then "_Y": a name is letters and digits only


def test_unloaded_lines_say_where_and_why():
    *_, unloaded = parse('A=1\nB="open\nC=2\n')[:3]
    assert [(u.line, u.names, u.reason) for u in unloaded] == [(2, ("B", "C"), "unterminated")]
    unloaded = parse("\ufeffKEY=1\nX=a b\n")[2]
    assert [(u.line, u.names, u.reason) for u in unloaded] == [(1, ("KEY",), "bom"), (2, ("X",), "syntax")]


def test_logical_lines_split_on_newline_only():
    """read_line splits on "\\n" alone: a form feed or U+2028 inside a value does not end the line."""
    assert [line for _, line, _ in logical_lines("A=1\x0c2\nB=3\u20284\n")] == ["A=1\x0c2", "B=3\u20284"]


def _with_dotenv(home, text):
    write_config(home, TAOTOKEN)
    (home / ".codex" / ".env").write_text(text)
    return offline_report(home, {})


def test_a_line_codex_rejects_is_named_with_its_reason(home):
    report = _with_dotenv(home, 'NOTE="remember\nTAOTOKEN_API_KEY=' + K + "\n")
    assert codes(report) == ["ENV020"] and report.verdict.value == "config"
    finding = report.findings[0]
    assert "~/.codex/.env:1" in finding.diagnosis and "never closed" in finding.diagnosis
    assert "Close the quote opened on line 1" in finding.remedy[1]
    report = _with_dotenv(home, "TAOTOKEN_API_KEY=" + K + " extra\n")
    assert codes(report) == ["ENV020"] and "ends at a space" in report.findings[0].diagnosis
    report = _with_dotenv(home, "TAOTOKEN_API_KEY: " + K + "\n")  # YAML habits
    assert codes(report) == ["ENV020"] and "NAME=value" in report.findings[0].diagnosis


def test_a_dollar_in_the_key_is_named_without_showing_the_key(home):
    from codexdoctor.report.render import render

    key = "sk-ab$cd0123456789xyzXYZ"
    report = _with_dotenv(home, f"TAOTOKEN_API_KEY={key}\n")
    assert codes(report) == ["ENV021"] and "$<18 characters of the value>" in report.findings[0].diagnosis
    assert "'…'" in report.findings[0].remedy[0]
    for fmt in ("text", "json", "markdown", "github", "junit"):  # the part after $ is a piece of the key
        text = render(report, fmt)
        assert "cd0123456789xyz" not in text and "sk-ab" not in text
    assert codes(_with_dotenv(home, f"TAOTOKEN_API_KEY='{key}'\n")) == []
    report = _with_dotenv(home, "OTHER_KEY=" + K + "\nTAOTOKEN_API_KEY=$OTHER_KEY\n")
    assert codes(report) == ["ENV021"] and "$OTHER is not set" in report.findings[0].diagnosis


def test_chinese_texts_of_the_new_dotenv_findings(home):
    from codexdoctor.report.render import render

    write_config(home, TAOTOKEN)
    (home / ".codex" / ".env").write_text('NOTE="remember\nTAOTOKEN_API_KEY=' + K + "\n")
    text = render(offline_report(home, {}, lang="zh"), "text")
    assert "引号没有闭合" in text and "never closed" not in text


_PIECES = st.lists(
    st.sampled_from(
        [
            "A",
            "KEY",
            "_",
            "=",
            " ",
            "\t",
            "'",
            '"',
            "\\",
            "$",
            "{",
            "}",
            "#",
            "\n",
            "\r\n",
            "\ufeff",
            "export ",
            "sk-123",
            "é",
            ".",
            ":",
            "\x00",
        ]
    ),
    max_size=60,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(_PIECES)
def test_any_dotenv_text_is_read_without_an_exception(text):
    """A .env is the user's file: whatever it holds, reading it gives values and unloaded lines, never a crash."""
    values, reserved, unloaded, substituted, unset = parse(text, {"A": "x"})[:5]
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in values.items())
    assert all(u.line >= 1 and u.reason in ("bom", "unterminated", "syntax") for u in unloaded)


# ---- issue 26 (4): substitution is bounded, and the reader stays linear -----------------------------------------


def test_doubling_substitution_is_capped_with_a_finding(home):
    import time

    from codexdoctor.codex import dotenvfile
    from tests.conftest import codes, offline_report, write_config

    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        'base_url = "https://gw.example/v1"\nenv_key = "GW_API_KEY"\n',
    )
    lines = ["A0=xxxxxxxxxxxxxxxx"] + [f"A{i}=${{A{i - 1}}}${{A{i - 1}}}" for i in range(1, 60)]
    (home / ".codex" / ".env").write_text("\n".join(lines) + "\nGW_API_KEY=sk-fine-0123456789abcdef\n")
    assert len((home / ".codex" / ".env").read_bytes()) < 1200
    started = time.monotonic()
    report = offline_report(home)
    assert time.monotonic() - started < HANG_S  # uncapped, 16 * 2^59 characters: it would never end
    assert "ENV023" in codes(report)
    finding = next(f for f in report.findings if f.code == "ENV023")
    assert "A13 (line 14)" in finding.diagnosis and "more" in finding.diagnosis  # 16 * 2^13: the first past the cap
    dotenv = dotenvfile.read(home / ".codex", {})
    assert all(len(v) <= dotenvfile.VALUE_MAX for v in dotenv.values.values())
    assert sum(map(len, dotenv.values.values())) <= dotenvfile.TOTAL_MAX + dotenvfile.VALUE_MAX


def test_many_references_stay_within_the_total():
    from codexdoctor.codex import dotenvfile

    text = "B=" + "b" * 1000 + "\n" + "".join(f"C{i}=" + "$B" * 100 + "\n" for i in range(3000))
    values, *_, capped, stopped = parse(text)
    assert stopped is not None and sum(map(len, values.values())) <= dotenvfile.TOTAL_MAX + dotenvfile.VALUE_MAX


@pytest.mark.parametrize("start", [' A="open\n', 'A="open\n'])
def test_an_unterminated_quote_after_a_space_is_linear(start):
    def text(lines: int) -> str:
        return start + "X=1\n" + ("y" * 60 + "\n") * lines

    unloaded = parse(text(16000))[2]  # ~1 MB
    assert unloaded and unloaded[0].reason == "unterminated"
    grows_linearly(lambda lines: parse(text(lines)), 1000)
