"""JSON report with a schema_version; the shape is pinned by data/report.schema.json."""

from __future__ import annotations

import dataclasses
import enum
import json
from typing import Any

from codexdoctor.model import Report
from codexdoctor.report.render.options import RenderOptions


def _shown(obj: Any) -> list[dataclasses.Field[Any]]:
    """A dataclass's fields the report shows: not those marked `json: False` (a check's bilingual message, which
    the JSON report carries as its summary in the chosen language)."""
    return [f for f in dataclasses.fields(obj) if f.metadata.get("json", True)]


def to_data(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_data(getattr(obj, f.name)) for f in _shown(obj)}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, dict) or hasattr(obj, "items"):
        return {str(k): to_data(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_data(v) for v in obj]
    return obj


def _plain(obj: Any) -> Any:
    """What the encoder cannot write itself: dataclasses, enums, read-only mappings. Plain dicts, lists and
    str-based enums go straight through the encoder, so a sessions report is not walked twice."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: getattr(obj, f.name) for f in _shown(obj)}
    if isinstance(obj, enum.Enum):
        return obj.value
    if hasattr(obj, "items"):
        return dict(obj.items())
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    raise TypeError(f"not JSON serializable: {type(obj).__name__}")


def render(report: Report, opts: RenderOptions) -> str:
    """Two-space indented UTF-8 JSON; orjson writes it (a sessions report of thousands in milliseconds) with the
    same layout as the standard library, which takes over when orjson is missing."""
    try:
        import orjson
    except ImportError:
        return json.dumps(report, indent=2, ensure_ascii=False, default=_plain) + "\n"
    option = orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS
    try:
        return orjson.dumps(report, default=_plain, option=option).decode() + "\n"
    except TypeError:  # an integer beyond 64 bits (a corrupt log's token count): the standard library writes it
        return json.dumps(report, indent=2, ensure_ascii=False, default=_plain) + "\n"
