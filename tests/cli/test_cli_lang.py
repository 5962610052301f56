"""Issue 40: `--lang` before the command, the command line's words in Chinese (usage errors, 问题编号, one colon
style), help texts that fit their command, and the Chinese line breaker of `--help`."""

import pytest

from codexdoctor.cli.linebreak import CLOSING, OPENING, cells, wrap
from codexdoctor.common.lang import argv_lang
from tests.conftest import TAOTOKEN, write_config


@pytest.fixture
def offline(home, monkeypatch):
    write_config(home, TAOTOKEN)
    monkeypatch.setenv("CODEXDOCTOR_NO_CODEX_PROBE", "1")
    return home


def _locale(monkeypatch, lang):
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8" if lang == "zh" else "en_US.UTF-8")


@pytest.mark.parametrize("locale", ["en", "zh"])
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("--lang", "zh", "check", "--offline"), "zh"),
        (("--lang=zh", "check", "--offline"), "zh"),
        (("check", "--offline", "--lang", "zh"), "zh"),
        (("--lang", "en", "check", "--offline"), "en"),
        (("check", "--offline", "--lang", "en"), "en"),
        (("--lang", "zh", "check", "--offline", "--lang", "en"), "en"),  # the command's own --lang wins
        (("--lang", "en", "check", "--offline", "--lang", "zh"), "zh"),
    ],
)
def test_lang_before_or_after_the_command(offline, run, monkeypatch, locale, args, expected):
    _locale(monkeypatch, locale)
    code, out, err = run(*args)
    assert code == 1, err
    assert ("结论" in out) == (expected == "zh"), out
    assert ("Verdict:" in out) == (expected == "en"), out


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_no_lang_follows_the_locale(offline, run, monkeypatch, locale):
    _locale(monkeypatch, locale)
    out = run("check", "--offline")[1]
    assert ("结论" in out) == (locale == "zh")


@pytest.mark.parametrize(
    ("before", "locale", "zh"),
    [(("--lang", "zh"), "en", True), (("--lang", "en"), "zh", False), ((), "zh", True), ((), "en", False)],
)
def test_usage_error_in_the_language_given_before_the_command(run, monkeypatch, before, locale, zh):
    _locale(monkeypatch, locale)
    code, _, err = run(*before, "explain", "NOPE")
    assert code == 2
    if zh:
        assert "未知的问题编号 'NOPE'" in err and "代码" not in err and "unknown code" not in err
    else:
        assert "unknown code 'NOPE'" in err and "问题编号" not in err


def test_argv_lang_takes_the_last_valid_one():
    assert argv_lang(["--lang", "zh", "check", "--lang", "en"]) == "en"
    assert argv_lang(["--lang=zh", "check"]) == "zh"
    assert argv_lang(["check", "--lang", "fr"]) is None  # click refuses it: in the locale's language
    assert argv_lang(["diagnose-error", "--", "--lang", "zh"]) is None
    assert argv_lang(["check"]) is None


def test_an_invalid_lang_is_refused_in_the_locales_language(run, monkeypatch):
    _locale(monkeypatch, "zh")
    code, _, err = run("check", "--lang", "fr")
    assert code == 2 and "的值无效" in err and "Invalid value" not in err


@pytest.mark.parametrize(
    ("args", "zh_part", "en_part"),
    [
        (("explain",), "缺少参数 'CODE'。", "Missing argument 'CODE'."),
        (
            ("diagnose-error", "--file", "/nonexistent/cdx-40"),
            "文件或目录不存在（ENOENT）",
            "No such file or directory",
        ),
        (("check", "-c", "foo", "--offline"), "无效的 -c 覆盖（缺少 '='）：foo", "Invalid override (missing '='): foo"),
    ],
)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_usage_errors_in_both_languages(offline, run, monkeypatch, args, zh_part, en_part, lang):
    _locale(monkeypatch, lang)
    code, _, err = run(*args)
    assert code == 2
    assert (zh_part if lang == "zh" else en_part) in err, err
    assert (en_part if lang == "zh" else zh_part) not in err


def test_a_folder_given_as_a_file_in_chinese(run, monkeypatch, tmp_path):
    _locale(monkeypatch, "zh")
    code, _, err = run("diagnose-error", "--file", str(tmp_path))
    squeezed = "".join(err.split())  # the error is wrapped to the terminal (issue 40)
    assert code == 2 and f"文件'{tmp_path}'是目录。" in squeezed and "File" not in err


HELP_COMMANDS = [(), ("check",), ("explain",), ("rules",), ("diagnose-error",), ("sessions",), ("sim",)]


@pytest.mark.parametrize("command", HELP_COMMANDS)
def test_chinese_help_one_colon_style_and_no_source_code_word(run, monkeypatch, command):
    _locale(monkeypatch, "zh")
    out = run(*command, "--help")[1]
    assert out.startswith("用法：codexdoctor")
    assert "选项：" in out and "选项:" not in out and "用法： " not in out and "Usage" not in out
    assert "代码" not in out  # 代码 reads as source code; a finding's code is 问题编号


def test_explain_and_rules_name_a_findings_code(run, monkeypatch):
    _locale(monkeypatch, "zh")
    assert "解释一个问题编号" in run("explain", "--help")[1]
    assert "列出全部问题编号" in run("rules", "--help")[1]
    assert "问题编号" in run("diagnose-error", "--help")[1]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_help_texts_fit_their_command(run, monkeypatch, lang):
    _locale(monkeypatch, lang)
    monkeypatch.setenv("COLUMNS", "200")
    sessions, sim, check = (" ".join(run(name, "--help")[1].split()) for name in ("sessions", "sim", "check"))
    sessions, sim, check = (text.replace("。 ", "。") for text in (sessions, sim, check))
    if lang == "en":
        assert "Show the evidence behind every finding." in sessions and "every check" not in sessions
        assert "Language of the output" in sim and "Language of the report" not in sim
        assert "Show the evidence behind every check and finding." in check
    else:
        assert "显示每个结论背后的证据。" in sessions and "每项检查" not in sessions
        assert "输出语言" in sim and "报告语言" not in sim
        assert "显示每项检查和每个结论背后的证据。" in check


# The Chinese line breaker itself.


def test_cells_count_ambiguous_characters_as_two():
    assert cells("abc") == 3
    assert cells("默认") == 4
    assert cells("“每个会话几轮”——…") == 2 * 11
    assert cells("é×") == 4  # ambiguous too: two cells on a CJK terminal


@pytest.mark.parametrize(
    "text",
    [
        "text（默认）、markdown、json、junit、github（GITHUB_ACTIONS=true 时的默认值）。",
        "存在这个严重程度或更严重的问题时，以 1 退出。 [默认：10.0; 0.5<=x<=600]",
        "整个检查的时限（秒），从启动时算起：到时仍没有任何响应迹象的提供方判为失败（还活着的提供方按 "
        "--first-token-timeout 等待）。",
        "假定这个 Codex 版本，而不运行 `codex --version`。",
    ],
)
@pytest.mark.parametrize("width", [20, 30, 44, 60])
def test_wrap_breaks_only_at_real_break_points(text, width):
    lines = wrap(text, width, "", "")
    assert all(cells(line) <= width for line in lines), lines
    joined = "".join(lines)
    for identifier in ("GITHUB_ACTIONS=true", "--first-token-timeout", "0.5<=x<=600", "10.0;", "`codex --version`"):
        if identifier in text and cells(identifier) + 2 <= width:  # with the bracket it is written against
            assert any(identifier in line for line in lines), (identifier, lines)
    for a, b in zip(lines, lines[1:]):
        assert b[:1] not in CLOSING and a[-1:] not in OPENING, (a, b)
    for word in ("默认", "退出", "markdown"):
        if word in text and width >= 20:
            assert any(word in line for line in lines), (word, lines)
    assert joined.replace(" ", "") == text.replace(" ", "")


def test_wrap_cuts_only_what_cannot_fit_a_line():
    lines = wrap("一二三四五六七八九十一二三四五六七八九十。", 16, "", "")
    assert lines == ["一二三四五六七八", "九十一二三四五六", "七八九十。"]
    assert wrap("x" * 25, 10, "", "") == ["x" * 10, "x" * 10, "x" * 5]  # an identifier longer than the line
