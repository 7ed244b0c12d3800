"""What a pydantic model's annotations say at a loc of one of its errors: the keys the mapping there takes,
the bounds of the value there (league.content.validate words its messages with them)."""
from __future__ import annotations

import types
import typing
from typing import Any

from pydantic import BaseModel


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _is_container(tp: Any) -> bool:
    return typing.get_origin(tp) in (list, dict)


def _strip(tp):
    """The type to walk into: without Annotated layers and Optional; of another union, the branch
    _union_branch chooses (the union itself when it chooses none)."""
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (typing.Union, types.UnionType) and (branch := _union_branch(tp)) is not None:
            tp = branch
        else:
            return tp


def _union_branch(tp):
    """The branch of a union that holds named keys or items: the only one beside None, else the first model
    (a mapping), else the first list or dict; None if there is none of these."""
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    if len(args) == 1:
        return args[0]
    stripped = [_strip_once(a) for a in args]
    for fits in (_is_model, _is_container):   # a model first, else a list or dict
        found = next((a for a in stripped if fits(a)), None)
        if found is not None:
            return found
    return None


def _strip_once(tp):
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def fields_at(model: type[BaseModel], loc: tuple) -> list[str] | None:
    """The keys allowed in the mapping at loc, walking the model's annotations."""
    tp: Any = model
    for elem in loc:
        tp = _strip(tp)
        if _is_model(tp):
            if elem in tp.model_fields:
                tp = tp.model_fields[elem].annotation
            continue  # a union tag or validator name
        origin = typing.get_origin(tp)
        if origin is dict:
            tp = typing.get_args(tp)[1]
        elif origin is list:
            tp = typing.get_args(tp)[0]
    tp = _strip(tp)
    if _is_model(tp):
        return list(tp.model_fields)
    return None


def _constraints(tp) -> tuple[Any, list]:
    """The type without Annotated layers and Optional, and the constraints (Ge, Le…) of those layers."""
    meta: list = []
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            args = typing.get_args(tp)
            for a in args[1:]:
                meta += list(getattr(a, "metadata", None) or [a])
            tp = args[0]
            continue
        if origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) == 1:
                tp = args[0]
                continue
        return tp, meta


def bounds_at(model, loc: tuple) -> tuple[Any, Any, Any]:
    """(lower bound, upper bound, type) of the value at loc, from the model's annotations (None: not found;
    only inclusive bounds, ge and le). A mapping's key is at (…, key, "[key]"), as pydantic reports it."""
    tp: Any = model
    meta: list = []
    for i, elem in enumerate(loc):
        if elem == "[key]":
            continue
        tp, meta = _constraints(tp)
        if _is_model(tp):
            field = tp.model_fields.get(elem) if isinstance(elem, str) else None
            if field is not None:
                tp, meta = field.annotation, list(field.metadata)
            continue
        inner = _inside(tp, elem, loc[i + 1:i + 2] == ("[key]",))
        if inner is not None:
            tp, meta = inner, []
    tp, more = _constraints(tp)
    lo = hi = None
    for c in meta + more:
        if getattr(c, "ge", None) is not None:
            lo = c.ge
        if getattr(c, "le", None) is not None:
            hi = c.le
    return lo, hi, tp


def _inside(tp, elem: Any, key: bool):
    """What a union, dict or list type holds at loc's elem: the union's branch that elem names, a dict's key
    type (`key`: elem is followed by "[key]") or value type, a list's item type; None for any other type."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return _tagged_branch(tp, elem)
    if origin is dict:
        return typing.get_args(tp)[0 if key else 1]
    if origin is list:
        return typing.get_args(tp)[0]
    return None


def _tagged_branch(tp, elem: Any):
    """The branch of a union that pydantic's loc element names (int, constrained-float, a Tag's name…); the
    union itself when none does."""
    for arg in typing.get_args(tp):
        inner, marks = _constraints(arg)
        name = getattr(inner, "__name__", "")
        if elem in (name, f"constrained-{name}") or any(getattr(m, "tag", None) == elem for m in marks):
            return arg
    return tp
