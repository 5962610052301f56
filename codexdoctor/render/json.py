"""JSON report with a schema_version; the shape is pinned by data/report.schema.json."""

from __future__ import annotations

import dataclasses
import enum
import json
from typing import Any

from codexdoctor.model import Report
from codexdoctor.render import RenderOptions


def to_data(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_data(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, dict) or hasattr(obj, "items"):
        return {str(k): to_data(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_data(v) for v in obj]
    return obj


def render(report: Report, opts: RenderOptions) -> str:
    return json.dumps(to_data(report), indent=2, ensure_ascii=False) + "\n"
