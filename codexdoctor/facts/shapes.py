"""Plain-data shapes of JSON-like values, and where a value departs from one (the facts of checks are declared in them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import GenericAlias, NoneType, UnionType
from typing import Any, get_args, get_origin

# A shape is plain data:
#   str, int, float, bool, None      the JSON scalars (an int fits float; a bool fits neither int nor float)
#   str | None                       any of these
#   list[str]                        a list of them; [{...}] a list of records
#   {"key": shape, ...}              a record with exactly these keys; Maybe(shape) for a key set on some runs only
#   Nullable({...})                  a record or list, or None
#   (int, float)                     a pair (a tuple in memory, a list in JSON)
#   Any                              whatever the provider sent, passed on unread by rules


@dataclass(frozen=True)
class Maybe:
    """A record key that the check sets on some runs only (rules read it with .get)."""

    shape: Any


@dataclass(frozen=True)
class Nullable:
    """A record or list that may be None instead."""

    shape: Any


def mismatches_of(shape: Any, value: Any, path: str) -> list[str]:
    """Where value departs from shape, one line each ("path.key: expected str, got int 3"); empty when it fits."""
    if shape is Any:
        return []
    if isinstance(shape, Nullable):
        return [] if value is None else mismatches_of(shape.shape, value, path)
    if isinstance(shape, dict):
        return _record(shape, value, path)
    if isinstance(shape, list):
        if not isinstance(value, (list, tuple)):
            return [f"{path}: expected a list, got {type(value).__name__}"]
        return [m for n, item in enumerate(value) for m in mismatches_of(shape[0], item, f"{path}[{n}]")]
    if isinstance(shape, tuple):
        if not isinstance(value, (list, tuple)) or len(value) != len(shape):
            return [f"{path}: expected {len(shape)} values, got {value!r:.60}"]
        return [
            m for n, (s, v) in enumerate(zip(shape, value, strict=True)) for m in mismatches_of(s, v, f"{path}[{n}]")
        ]
    if isinstance(shape, GenericAlias):
        return _generic(shape, value, path)
    if isinstance(shape, UnionType):
        if any(not mismatches_of(member, value, path) for member in get_args(shape)):
            return []
        return [f"{path}: expected {shape}, got {type(value).__name__} {value!r:.60}"]
    return (
        [] if _scalar(shape, value) else [f"{path}: expected {_name(shape)}, got {type(value).__name__} {value!r:.60}"]
    )


def _record(shape: dict[str, Any], value: Any, path: str) -> list[str]:
    if not isinstance(value, Mapping):
        return [f"{path}: expected a record, got {type(value).__name__}"]
    out = [f"{path}.{key}: not declared" for key in value if key not in shape]
    for key, field in shape.items():
        optional = isinstance(field, Maybe)
        if key not in value:
            out += [] if optional else [f"{path}.{key}: missing"]
        else:
            out += mismatches_of(field.shape if optional else field, value[key], f"{path}.{key}")
    return out


def _generic(shape: GenericAlias, value: Any, path: str) -> list[str]:
    origin, args = get_origin(shape), get_args(shape)
    if origin is dict:
        return [] if isinstance(value, Mapping) else [f"{path}: expected a mapping, got {type(value).__name__}"]
    if not isinstance(value, (list, tuple)):
        return [f"{path}: expected a list, got {type(value).__name__}"]
    return [m for n, item in enumerate(value) for m in mismatches_of(args[0], item, f"{path}[{n}]")]


def _scalar(shape: Any, value: Any) -> bool:
    if shape is None or shape is NoneType:
        return value is None
    if isinstance(value, bool):
        return shape is bool
    if shape is float:
        return isinstance(value, (int, float))
    return isinstance(shape, type) and isinstance(value, shape)


def _name(shape: Any) -> str:
    return "None" if shape is None or shape is NoneType else getattr(shape, "__name__", str(shape))
