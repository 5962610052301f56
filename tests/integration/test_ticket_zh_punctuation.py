"""Issue 40 (review at 80 columns): the Chinese ticket said `**结论: `context`**`, `代理: 否`, `CTX014: 多个会话…` and
`在第 4 轮失败 (2026-12-01T04:09:13.508Z)`: ASCII colons and brackets beside Chinese, the verdict's class in English.
One style in Chinese: full-width `：` and `（）`, the verdict in the words of the text report's verdict line."""

from __future__ import annotations

import re

from tests.conftest import write_config
from tests.rollout_factory import RolloutWriter

# A Chinese word (or a closing full-width bracket) followed by an ASCII colon; an ASCII bracket opened beside Chinese.
_ASCII_COLON = re.compile(r"[\u4e00-\u9fff）]: ")
_ASCII_BRACKET = re.compile(r"[\u4e00-\u9fff][ ]?\((?!`)|\([\u4e00-\u9fff]|[\u4e00-\u9fff]\)")


def _zh_ticket(home, run, tmp_path, monkeypatch) -> str:
    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        'base_url = "https://gw.example/v1?x=1"\nenv_key = "GW_KEY"\n',
    )
    w = RolloutWriter(home / ".codex" / "sessions")
    w.turn(9_000)
    w.turn(12_000, error="unexpected status 502 Bad Gateway: upstream failed")
    w.close()
    target = tmp_path / "t.md"
    monkeypatch.setenv("GW_KEY", "sk-gw-0123456789abcdef")
    run("report", "--offline", "--lang", "zh", "-o", str(target))
    return target.read_text()


def test_the_chinese_ticket_takes_full_width_colons_and_brackets(home, run, tmp_path, monkeypatch):
    text = _zh_ticket(home, run, tmp_path, monkeypatch)
    assert not _ASCII_COLON.findall(text), [line for line in text.splitlines() if _ASCII_COLON.search(line)]
    assert not _ASCII_BRACKET.findall(text), [line for line in text.splitlines() if _ASCII_BRACKET.search(line)]
    summary = text.split("## 摘要", 1)[1].split("##", 1)[0]
    assert re.search(r"原因（按修复顺序）：[A-Z]+\d{3}：", summary), summary
    assert re.search(r"在第 2 轮失败（\d{4}-", text), text
    assert "代理：否" in text and "| `gw`（自定义） |" in text


def test_the_chinese_ticket_says_its_verdict_in_chinese(home, run, tmp_path, monkeypatch):
    text = _zh_ticket(home, run, tmp_path, monkeypatch)
    lines = [line for line in text.splitlines() if line.startswith("**结论")]
    assert lines[0].startswith("**结论：配置问题（`config`）** — 1 个配置类错误：URL004"), lines  # the check's
    said = re.compile(
        r"\*\*结论：(配置|通道|上下文)问题（`(config|channel|context)`）\*\* — \d+ 个(配置|通道|上下文)类错误："
    )
    assert all(said.match(line) for line in lines), lines  # and the sessions report's
    # the reason names the other kinds in Chinese too, as the verdict line does (not `channel` 类)
    assert all("`" not in line.split("**", 2)[2] for line in lines), lines
