"""memplan: plan where every tensor buffer of an ML model lives.

Five lines::

    import memplan
    plan = memplan.plan("model.onnx", fast_memory="2MiB")
    print(plan.peak, plan.lower_bound, plan.algorithm)
    for b in plan.buffers[:3]:
        print(b.name, b.size, b.offset)

``memplan.plan`` takes a file (lifetime CSV, ONNX model, text IR — the
formats of ``memplan plan``) or a list of buffers, and every option of
``memplan plan`` as a keyword argument spelled with underscores; or a
``memplan.Program``, built op by op or from a PyTorch module by
``memplan.from_fx``, planned with the C++ API. The result
is made of plain Python objects; ``Plan.to_json()`` is byte for byte the
JSON ``memplan plan --json -`` writes, and ``Plan.verify()`` checks it again
with memplan's independent verifier. Errors raise ``memplan.Error`` with the
command line's located message and exit code. Planning needs no numpy
(only ``Plan.live_bytes`` and ``Plan.plot`` do).
"""

from __future__ import annotations

import json as _json
import os
import re as _re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from . import _core, _views
from ._errors import Error
from ._fx import from_fx
from ._program import Program, plan_program as _plan_program

__all__ = ["plan", "Plan", "Program", "from_fx", "Buffer", "Allocation", "Pool", "Space",
           "Error"]


@dataclass(frozen=True)
class Allocation:
    """Where a buffer is during ``[start, end]`` (closed, logical time
    steps): ``space`` 0 is default memory, 1 alternate (fast) memory;
    ``offset`` in bytes from the start of that space."""

    space: int
    offset: int
    start: int
    end: int


@dataclass(frozen=True)
class Buffer:
    """One buffer (an alias set: values that share bytes): ``size`` in
    bytes, live over ``[start, end]`` (closed, logical time steps), in
    ``pool``, placed by ``allocations`` (more than one when memory space
    assignment moves it between spaces)."""

    id: int
    name: str
    values: tuple
    size: int
    start: int
    end: int
    pool: str
    lifetime: str
    allocations: tuple
    value_offsets: tuple = ()

    @property
    def offset(self) -> Optional[int]:
        """The byte offset when the buffer has one place for its whole life
        (one allocation), else None (see ``allocations``)."""
        return self.allocations[0].offset if len(self.allocations) == 1 else None

    def value_allocations(self, value: str) -> tuple:
        """Where value ``value`` (one of ``values``) is: the buffer's
        allocations shifted by the value's bytes from the buffer's first byte
        (``value_offsets``, parallel to ``values``; 0 for most values, a view's
        offset inside its source, a concatenated operand's inside the result).
        Raises KeyError for a value the buffer does not hold."""
        if value not in self.values:
            raise KeyError(value)
        shift = self.value_offsets[self.values.index(value)] if self.value_offsets else 0
        return tuple(Allocation(a.space, a.offset + shift, a.start, a.end)
                     for a in self.allocations)


@dataclass(frozen=True)
class Pool:
    """A pool of one lifetime in one space: ``offset`` and ``size`` in
    bytes within the space; ``lower_bound`` the max-live bytes of its
    buffers; ``buffers`` how many it holds."""

    name: str
    lifetime: str
    space: int
    offset: int
    size: int
    lower_bound: int
    buffers: int


@dataclass(frozen=True)
class Space:
    """A memory space (``default`` or ``alternate``): ``peak`` is the
    highest byte used, ``capacity`` its limit in bytes (None: unlimited);
    ``details`` the whole JSON object (max live bytes, peak step and op,
    transient figures)."""

    id: int
    name: str
    peak: int
    capacity: Optional[int]
    alignment: int
    details: dict = field(compare=False, repr=False)


class Plan:
    """A verified plan. Attributes: ``input`` (the path, or the name given
    to a buffer list), ``algorithm``, ``peak`` (bytes: the transient pool's
    size), ``lower_bound`` (bytes: max-live of the transient buffers),
    ``time_steps``, ``alignment``, ``buffers``, ``pools``, ``spaces``,
    ``async_copies`` (prefetches, evictions and window prefetches — those
    with ``window_op`` —, as JSON objects), ``msa``
    (memory space assignment figures, a dict, or None), ``summary`` (the
    text ``memplan plan`` prints) and ``json`` (the parsed JSON document)."""

    def __init__(self, planned: Any, verifier: Any = None):
        # planned: a _core.PlannedInput (a file or buffer list) or a
        # _core.Result (a Program); verifier: how verify() checks the latter.
        self._planned = planned
        self._verifier = verifier
        doc = _json.loads(planned.json)
        self.json = doc
        self.input = doc["input"]
        self.algorithm = doc["algorithm"]
        self.peak = doc["peak_bytes"]
        self.lower_bound = doc["lower_bound_bytes"]
        self.time_steps = doc["time_steps"]
        self.alignment = doc["alignment"]
        self.verified = doc["verified"]
        self.summary = planned.summary
        self.buffers = [
            Buffer(b["id"], b["name"], tuple(b["values"]), b["size"], b["start"], b["end"],
                   b["pool"], b["lifetime"],
                   tuple(Allocation(a["space"], a["offset"], a["start"], a["end"])
                         for a in b["allocations"]),
                   tuple(b.get("value_offsets", ())))
            for b in doc["buffers"]
        ]
        self.pools = [
            Pool(p["name"], p["lifetime"], p["space"], p["offset_bytes"], p["size_bytes"],
                 p["lower_bound_bytes"], p["buffers"])
            for p in doc["pools"]
        ]
        self.spaces = [
            Space(s["id"], s["name"], s["peak_bytes"], s["capacity_bytes"], s["alignment"], s)
            for s in doc["spaces"]
        ]
        self.async_copies = doc.get("async_copies", [])
        self.msa = doc.get("msa")

    def to_json(self) -> str:
        """The plan as JSON (schema memplan.plan/1), byte for byte what
        ``memplan plan INPUT --json -`` writes with the same options."""
        return self._planned.json

    def verify(self) -> bool:
        """Reads ``to_json()`` back and checks it against the input as it
        was loaded for planning (a file changed since is not re-read) with
        memplan's independent verifier, by the rules ``memplan verify``
        applies. Returns True; raises Error (exit_code 1) naming the first
        violated rule."""
        failure = self._verifier() if self._verifier else _core.verify(self._planned)
        if failure is not None:
            raise Error(failure[1], failure[0])
        return True

    def live_bytes(self, space: int = 0, pool: Optional[str] = None) -> Any:
        """Bytes placed in ``space`` at each time step, a numpy array (see
        memplan._views.live_bytes); ``pool="transient"`` peaks at
        ``lower_bound``. Needs numpy."""
        return _views.live_bytes(self, space, pool)

    def plot(self, space: int = 0, pool: Optional[str] = "transient") -> Any:
        """A matplotlib Figure: live bytes over time and the memory map of
        ``space`` (see memplan._views.plot). Needs matplotlib."""
        return _views.plot(self, space, pool)

    def _repr_html_(self) -> str:
        return _views.summary_html(self)

    def __repr__(self) -> str:
        return (f"<memplan.Plan {self.input!r}: {len(self.buffers)} buffers, peak "
                f"{self.peak} bytes, lower bound {self.lower_bound} bytes, "
                f"algorithm {self.algorithm}>")


BufferSpec = Union[Sequence[int], Mapping[str, Any]]


def plan(source: Union[str, os.PathLike, Iterable[BufferSpec], Program], *,
         name: str = "buffers", **options: Any) -> Plan:
    """Plans ``source`` and returns the verified Plan.

    ``source`` may be a ``memplan.Program`` (built in Python or by
    ``from_fx``): it is planned with the C++ API (``memplan::api::Plan``),
    and the options are ``algorithm``, ``effort``, ``time_limit``
    (seconds), ``alignment``, ``capacity`` (bytes, or
    ``{"transient": bytes}``), ``fast_memory`` and ``target``; sizes are
    ints or strings such as ``"2MiB"``. ``to_json()`` is then byte for byte
    what ``memplan plan`` writes for the program's ``to_text()``.

    ``source`` is either a path (``.csv`` lifetimes, ``.onnx`` model, else
    text IR; as ``memplan plan INPUT``) or an iterable of buffers, each a
    ``(size, start, end)`` tuple or a dict with ``size`` and either
    ``start``/``end`` (closed range of logical time steps, as in the JSON
    plan) or ``lower``/``upper`` (half-open, as in MiniMalloc's CSV), and
    optionally ``id`` (a name; default the index), ``alignment`` (bytes),
    ``offset`` (a fixed position) and ``gaps`` (steps where the buffer holds
    nothing or only part of its bytes, as the CSV's ``gaps`` column: a
    string ``"2-4 6-8@0:32"`` or a list of such strings, ``(lower, upper)``
    half-open pairs and ``(lower, upper, lo, hi)`` windows). ``name`` names
    a buffer list in messages and in the JSON's ``input``.

    ``options`` are the flags of ``memplan plan`` with ``_`` for ``-``:
    ``algorithm="best-fit-spatial"``, ``alignment=64``,
    ``fast_memory="2MiB"`` (or bytes as an int), ``target="edge-npu"``,
    ``dim={"batch": 8}``, ``capacity={"transient": "256KiB"}``,
    ``no_alias=True``, ``svg="map.svg"``, ... A True value passes a bare
    flag, False or None omits it, a dict passes ``NAME=VALUE`` once per
    item and a list or tuple repeats the flag. ``json`` is not an option:
    use ``Plan.to_json()``.

    Raises Error with the command line's message and exit code: 2 for bad
    input or options, 1 when the plan does not fit a capacity.

    Example::

        >>> p = memplan.plan([(4, 0, 2), (8, 1, 3), (4, 3, 4)])
        >>> p.peak, [b.offset for b in p.buffers]
        (12, [8, 0, 8])
    """
    if isinstance(source, Program):
        program = source._program()
        result = _plan_program(source, options)
        return Plan(result, lambda: _core.verify_result(program, result))
    args = _flags(options)
    if isinstance(source, (bytes, bytearray)) or not isinstance(
            source, (str, os.PathLike, Iterable)):
        raise Error("memplan: error: plan() takes a path or a list of buffers, got "
                    f"{type(source).__name__}", 2)
    if isinstance(source, (str, os.PathLike)):
        result = _core.plan([os.fspath(source)] + args)
    else:
        result = _core.plan([name] + args, _buffers_csv(source))
    if isinstance(result, tuple):
        raise Error(_in_python_words(result[1], options), result[0])
    return Plan(result)


# The command line's words for an option it does not know, e.g.
# "memplan: error: unexpected argument '--fast-memry' for 'plan' (did you
# mean --fast-memory?)".
_UNKNOWN_FLAG = _re.compile(
    r"unexpected argument '(--[^'=]*)[^']*' for 'plan'(?: \(did you mean --([\w-]+)\?\))?")


def _in_python_words(message: str, options: Mapping[str, Any]) -> str:
    """An unknown-option message as a keyword argument's, spelled as the
    caller wrote it: "plan() got an unknown keyword argument 'fast_memry='
    (did you mean fast_memory=?)"; any other message as it is."""
    match = _UNKNOWN_FLAG.search(message)
    if match is None:
        return message
    keys = [k for k in options if "--" + k.replace("_", "-") == match.group(1)]
    if not keys:
        return message
    text = f"memplan: error: plan() got an unknown keyword argument '{keys[0]}='"
    if match.group(2):
        text += f" (did you mean {match.group(2).replace('-', '_')}=?)"
    return text


def _flags(options: Mapping[str, Any]) -> list:
    args = []
    for key, value in options.items():
        if key == "json":
            raise Error("memplan: error: plan() takes no json option; use Plan.to_json()", 2)
        flag = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            args.append(flag)
        elif isinstance(value, Mapping):
            for item, item_value in value.items():
                args += [flag, f"{item}={item_value}"]
        elif isinstance(value, (list, tuple)):
            for item in value:
                args += [flag, str(item)]
        else:
            args += [flag, str(value)]
    return args


def _integer(where: str, key: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise Error(f"{where}: error: '{key}' must be an integer >= {minimum}, got {value!r}", 2)
    return value


def _gaps_field(where: str, gaps: Any) -> str:
    """A dict's ``gaps`` as the CSV column's text: a string in that syntax
    (``"2-4 6-8@0:32"``) as it is, or a list whose entries are such strings,
    ``(lower, upper)`` pairs (half-open steps holding nothing) or ``(lower,
    upper, lo, hi)`` windows (only bytes [lo, hi) kept during [lower,
    upper)). The CSV reader checks the ranges."""
    if isinstance(gaps, str):
        entries = gaps.split()
    elif isinstance(gaps, (list, tuple)):
        entries = []
        for entry in gaps:
            if isinstance(entry, str):
                entries.append(entry.strip())
            elif isinstance(entry, (list, tuple)) and len(entry) in (2, 4):
                numbers = [_integer(where, "gaps", n, 0) for n in entry]
                text = f"{numbers[0]}-{numbers[1]}"
                entries.append(text + (f"@{numbers[2]}:{numbers[3]}" if len(numbers) == 4 else ""))
            else:
                raise Error(f"{where}: error: 'gaps' entries are 'L-U[@LO:HI]' strings, "
                            f"(lower, upper) or (lower, upper, lo, hi), got {entry!r}", 2)
    else:
        raise Error(f"{where}: error: 'gaps' must be a string or a list, got {gaps!r}", 2)
    text = " ".join(entries)
    if "," in text or "\n" in text:
        raise Error(f"{where}: error: 'gaps' holds a comma or line break: {text!r}", 2)
    return text


def _buffers_csv(buffers: Iterable[BufferSpec]) -> str:
    """The buffers as lifetime CSV text (half-open ranges), checked here so
    that errors name the buffer's index rather than a CSV line."""
    rows = []
    first_index = {}  # id -> index of the buffer that first used it
    optional = {"alignment": False, "offset": False, "gaps": False}
    for index, spec in enumerate(buffers):
        where = f"buffers[{index}]"
        if isinstance(spec, Mapping):
            unknown = set(spec) - {"id", "size", "start", "end", "lower", "upper", "alignment",
                                   "offset", "gaps"}
            if unknown:
                raise Error(f"{where}: error: unknown key '{sorted(unknown)[0]}' (expected id, "
                            "size, start/end or lower/upper, alignment, offset, gaps)", 2)
            if ("start" in spec) == ("lower" in spec) or ("end" in spec) == ("upper" in spec):
                raise Error(f"{where}: error: give start and end (closed) or lower and upper "
                            "(half-open)", 2)
            size = spec.get("size")
            if "start" in spec:
                lower = _integer(where, "start", spec["start"], 0)
                upper = _integer(where, "end", spec["end"], lower) + 1
            else:
                lower = _integer(where, "lower", spec["lower"], 0)
                upper = _integer(where, "upper", spec["upper"], lower + 1)
            row = {"id": str(spec.get("id", index)), "size": _integer(where, "size", size, 0),
                   "lower": lower, "upper": upper}
            for key in optional:
                if key in spec:
                    row[key] = (_gaps_field(where, spec[key]) if key == "gaps" else
                                _integer(where, key, spec[key], 1 if key == "alignment" else 0))
                    optional[key] = True
        else:
            if isinstance(spec, (str, bytes)) or len(spec) != 3:
                raise Error(f"{where}: error: expected (size, start, end) or a dict, got "
                            f"{spec!r}", 2)
            size, start, end = spec
            start = _integer(where, "start", start, 0)
            row = {"id": str(index), "size": _integer(where, "size", size, 0), "lower": start,
                   "upper": _integer(where, "end", end, start) + 1}
        if "," in row["id"] or "\n" in row["id"] or not row["id"].strip():
            raise Error(f"{where}: error: id {row['id']!r} is empty or holds a comma or line "
                        "break", 2)
        if row["id"] in first_index:
            raise Error(f"{where}: error: duplicate id '{row['id']}' (first "
                        f"buffers[{first_index[row['id']]}])", 2)
        first_index[row["id"]] = index
        rows.append(row)
    columns = ["id", "lower", "upper", "size"] + [k for k, used in optional.items() if used]
    lines = [",".join(columns)]
    for row in rows:
        lines.append(",".join(str(row.get(c, 1 if c == "alignment" else "")) for c in columns))
    return "\n".join(lines) + "\n"

