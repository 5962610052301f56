"""Issue 40 (review): a Chinese run said the operating system's reasons in English (`无法写入 …：No such file or
directory`). Every OS error a user can hit reads in Chinese, the errno's name kept in brackets."""

from __future__ import annotations

import errno
import os

import pytest

from codexdoctor.common import oserror, safefile
from codexdoctor.i18n.cli_zh import usage_error_zh
from tests.conftest import TAOTOKEN, write_config

USER_FACING = [
    errno.ENOENT,
    errno.EACCES,
    errno.EPERM,
    errno.EISDIR,
    errno.ENOTDIR,
    errno.ENOSPC,
    errno.EDQUOT,
    errno.EROFS,
    errno.EEXIST,
    errno.ELOOP,
    errno.ENAMETOOLONG,
    errno.EADDRINUSE,
]


def has_chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


@pytest.mark.parametrize("n", USER_FACING, ids=lambda n: errno.errorcode[n])
def test_every_reason_a_user_can_hit_is_said_in_chinese(n):
    exc = OSError(n, os.strerror(n))
    zh = oserror.reason_zh(exc)
    assert has_chinese(zh) and errno.errorcode[n] in zh and os.strerror(n) not in zh, zh
    assert oserror.said(exc, "en") == os.strerror(n)
    # the same reason kept only as text (a config layer's read_error) and in click's own message
    assert oserror.words_zh(os.strerror(n)) == zh
    assert safefile.reason_zh(os.strerror(n)) != os.strerror(n)
    assert usage_error_zh(f"cannot write /x/y: {os.strerror(n)}", oserror.words_zh) == f"无法写入 /x/y：{zh}"


def test_an_unknown_reason_is_the_os_words_as_they_are():
    assert oserror.reason_zh(OSError(errno.ESRCH, "No such process")) == "No such process"
    assert oserror.words_zh("something else") == "something else"


@pytest.mark.parametrize(
    "args",
    [
        ("check", "--offline", "-o", "/nonexistent-dir/x.json"),
        ("report", "--offline", "-o", "/nonexistent-dir/x.md"),
        ("sessions", "-o", "/nonexistent-dir/x.md"),
        ("diagnose-error", "--file", "/nonexistent-dir/pasted.txt"),
    ],
    ids=lambda a: a[0],
)
def test_a_chinese_run_says_why_a_file_failed_in_chinese(home, run, args):
    write_config(home, TAOTOKEN)
    code, out, err = run(*args, "--lang", "zh")
    assert code != 0 and "No such file or directory" not in err and "文件或目录不存在（ENOENT）" in err, err
    code, out, err = run(*args, "--lang", "en")
    assert "No such file or directory" in err, err
