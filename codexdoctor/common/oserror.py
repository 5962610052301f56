"""The operating system's reason for a file or a socket it refused, in the run's language (issue 40: a Chinese run
said `无法写入 …：No such file or directory`).

Keyed by errno, so the words do not depend on the C library's locale; a reason kept only as text (a config layer's
`read_error`) is found by the English strerror of the same errno. The errno's name stays in brackets: it is what a
search or a bug report needs. A reason not in the table is the OS's own words, as they are. Plain strings: common/
sits below model.Msg (the caller makes a Msg of the pair where it shows it).
"""

from __future__ import annotations

import errno
import os

_ZH: dict[int, str] = {
    errno.ENOENT: "文件或目录不存在",
    errno.EACCES: "没有权限",
    errno.EPERM: "操作不被允许",
    errno.EISDIR: "这是一个目录",
    errno.ENOTDIR: "路径中有一段不是目录",
    errno.ENOSPC: "磁盘空间已满",
    errno.EDQUOT: "磁盘配额已用完",
    errno.EROFS: "文件系统是只读的",
    errno.EEXIST: "文件已存在",
    errno.ELOOP: "符号链接层数过多",
    errno.ENAMETOOLONG: "文件名太长",
    errno.EFBIG: "文件太大",
    errno.EIO: "输入/输出错误",
    errno.EBUSY: "设备或资源正忙",
    errno.ETXTBSY: "文件正在被执行",
    errno.EMFILE: "打开的文件太多",
    errno.ENFILE: "系统打开的文件太多",
    errno.ENXIO: "没有这个设备或地址",
    errno.ENODEV: "没有这个设备",
    errno.EINVAL: "参数无效",
    errno.EXDEV: "不能跨文件系统链接",
    errno.ENOEXEC: "不是可执行文件的格式",
    errno.EADDRINUSE: "地址已被占用",
    errno.EADDRNOTAVAIL: "无法使用这个地址",
    errno.ECONNREFUSED: "连接被拒绝",
}
_BY_TEXT = {os.strerror(n): n for n in _ZH}


def _zh(n: int) -> str:
    return f"{_ZH[n]}（{errno.errorcode.get(n, str(n))}）"


def reason(exc: OSError) -> str:
    """The OS's own words for `exc` (English), as facts and English messages carry them."""
    return str(exc.strerror or exc)


def reason_zh(exc: OSError) -> str:
    """`exc`'s reason in Chinese with its errno's name (`文件或目录不存在（ENOENT）`); the OS's words when unknown."""
    if exc.errno in _ZH:
        return _zh(exc.errno)
    return words_zh(reason(exc))


def words_zh(text: str) -> str:
    """A strerror kept as text (`No such file or directory`) in Chinese; any other text as it is."""
    n = _BY_TEXT.get(text)
    return _zh(n) if n is not None else text


def said(exc: OSError, lang: str) -> str:
    """`exc`'s reason in `lang`."""
    return reason_zh(exc) if lang == "zh" else reason(exc)
