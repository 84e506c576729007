"""memplan.Program: a program built op by op in Python, over the C++
``memplan::api::ProgramBuilder`` (include/memplan/program.h), and planning
it with ``memplan::api::Plan``."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence, Union

from . import _core
from ._errors import Error

__all__ = ["Program", "plan_program"]

_LIFETIMES = {"transient", "external", "constant", "variable", "staging"}


class Program:
    """A program built op by op, as ``memplan::api::ProgramBuilder`` builds
    one in C++ (docs/ir.md has the model). Ids (ints) returned by the
    ``add_*`` methods name computations, values and ops of this program.
    Nothing is checked until ``build()``, which validates and analyses the
    program; after it the program is immutable and ``memplan.plan`` plans
    it (``plan`` builds an unbuilt program first).

    Example::

        p = memplan.Program("tiny")
        main = p.add_function("main")
        p.set_entry(main)
        x = p.add_param(main, "x", "f32", [64, 64])   # 16,384 bytes
        r = p.add_op(main, "relu", [x], flops=4096)
        y = p.add_result(r, "y", "f32", [64, 64])
        p.set_return(main, [y])
        print(memplan.plan(p).peak)
    """

    def __init__(self, name: str = "") -> None:
        self._builder: Optional[_core.ProgramBuilder] = _core.ProgramBuilder(name)
        self._built: Optional[_core.Program] = None

    def _b(self) -> "_core.ProgramBuilder":
        if self._builder is None:
            raise Error("memplan: error: this Program is already built; it cannot change", 2)
        return self._builder

    def add_function(self, name: str) -> int:
        """A function computation (``func @name``); returns its id."""
        return self._b().add_function(name)

    def set_entry(self, computation: int) -> None:
        """Makes ``computation`` the program's entry."""
        self._b().set_entry(computation)

    def add_param(self, computation: int, name: str, size: Union[int, str],
                  dims: Optional[Sequence[int]] = None) -> int:
        """A parameter of ``size`` bytes (an int), or of a tensor type: a
        dtype (``"f32"``, ``"bf16"``, ``"i8"``, ... as in docs/ir.md) and
        ``dims``, its bytes their product times the element size. Returns
        the value's id."""
        if dims is None:
            return self._b().add_param_bytes(computation, name, _bytes(size))
        return self._b().add_param_typed(computation, name, size, list(dims))

    def add_op(self, computation: int, opcode: str, operands: Sequence[int], *,
               flops: float = 0, transcendentals: float = 0,
               bytes_accessed: Optional[int] = None) -> int:
        """Appends an op to ``computation``'s schedule; returns its id. The
        cost (flops, transcendental evaluations, bytes accessed — default
        the sum of operand and result sizes) feeds the fast-memory cost
        model. Opcodes are free-form; ``constant`` makes its results
        constants."""
        return self._b().add_op(computation, opcode, list(operands), float(flops),
                                float(transcendentals), bytes_accessed)

    def add_result(self, op: int, name: str, size: Union[int, str],
                   dims: Optional[Sequence[int]] = None) -> int:
        """A result of ``op``: ``size`` bytes or a dtype and dims, as for
        ``add_param``. Returns the value's id."""
        if dims is None:
            return self._b().add_result_bytes(op, name, _bytes(size))
        return self._b().add_result_typed(op, name, size, list(dims))

    def set_return(self, computation: int, results: Sequence[int]) -> None:
        """The computation's return values (``return %a, %b``)."""
        self._b().set_return(computation, list(results))

    def tie(self, result: int, operand: int) -> None:
        """``result`` is written in place into ``operand`` (an operand of the
        same op, of the same size, at its last use): one buffer."""
        self._b().tie(result, operand)

    def view(self, result: int, operand: int, offset: int = 0) -> None:
        """``result`` is a window of ``operand``'s storage starting
        ``offset`` bytes into it (reshape, slice): no storage of its own."""
        self._b().view(result, operand, offset)

    def set_lifetime(self, value: int, lifetime: str) -> None:
        """``"transient"``, ``"external"``, ``"constant"``, ``"variable"`` or
        ``"staging"`` (docs/ir.md "Lifetimes")."""
        if lifetime not in _LIFETIMES:
            raise Error(f"memplan: error: unknown lifetime {lifetime!r} (expected one of "
                        f"{', '.join(sorted(_LIFETIMES))})", 2)
        self._b().set_lifetime(value, getattr(_core.Lifetime, lifetime))

    def set_scratch(self, op: int, size: int) -> None:
        """Scratch bytes ``op`` reserves for its own duration."""
        self._b().set_scratch(op, _bytes(size))

    def add_while(self, computation: int, operands: Sequence[int], cond: int, body: int,
                  trip_count: Optional[int] = None) -> int:
        """A loop ``while(operands) {cond, body}``; add one result per
        operand with ``add_result``. ``trip_count``: iterations, if known."""
        return self._b().add_while(computation, list(operands), cond, body, trip_count)

    def add_call(self, computation: int, callee: int, operands: Sequence[int]) -> int:
        """``call(operands) {callee}``: the callee's params take the operands."""
        return self._b().add_call(computation, callee, list(operands))

    def build(self, *, reorder: bool = False, regions_per: Optional[int] = None) -> "Program":
        """Validates and analyses the program (the rules of docs/ir.md);
        returns self. ``reorder`` runs the ops in an order that lowers the
        transient max-live (docs/reorder.md); ``regions_per`` wraps them into
        execution regions of that many ops (docs/regions.md). Raises Error
        (exit_code 2) naming the first broken rule."""
        built = self._b().build(reorder, regions_per)
        self._builder = None
        if isinstance(built, tuple):
            raise Error(built[1], built[0])
        self._built = built
        return self

    @property
    def built(self) -> bool:
        """Whether ``build()`` has run."""
        return self._built is not None

    def _program(self) -> "_core.Program":
        if self._built is None:
            self.build()
        return self._built

    def to_text(self) -> str:
        """The program in memplan's text IR (docs/ir.md); builds it first."""
        return self._program().to_text()

    @property
    def buffer_count(self) -> int:
        """Buffers (alias sets, plus one per op with scratch); builds it first."""
        return self._program().buffer_count

    @property
    def time_steps(self) -> int:
        """Logical time steps of the flattened schedule; builds it first."""
        return self._program().time_steps

    @property
    def schedule(self) -> list:
        """The entry's ops in execution order, each named by its first
        result (``"%y"``) or ``"opcode#index"``; builds it first."""
        return list(self._program().schedule)

    def __repr__(self) -> str:
        if self._built is None:
            return "<memplan.Program (not built)>"
        return (f"<memplan.Program: {self.buffer_count} buffers, "
                f"{self.time_steps} time steps>")


def _bytes(size: Any) -> int:
    """An int as it is, or a string such as ``"2MiB"`` parsed as the command
    line parses byte sizes."""
    if isinstance(size, bool):
        raise Error(f"memplan: error: expected a byte size, got {size!r}", 2)
    if isinstance(size, int):
        return size
    if isinstance(size, str):
        parsed = _core.byte_size(size)
        if isinstance(parsed, tuple):
            raise Error(parsed[1], parsed[0])
        return parsed
    raise Error(f"memplan: error: expected a byte size (int or '2MiB'), got {size!r}", 2)


# plan(program, ...) keyword -> how it sets memplan::api::Options.
_PROGRAM_OPTIONS = ("algorithm", "effort", "time_limit", "alignment", "capacity",
                    "fast_memory", "target")


def plan_program(program: Program, options: Mapping[str, Any]) -> "_core.Result":
    """Plans a Program with the C++ API's Plan(); the options are
    ``memplan.plan``'s that apply to a built program."""
    opts = _core.Options()
    for key, value in options.items():
        if key not in _PROGRAM_OPTIONS:
            raise Error(f"memplan: error: plan() got an unknown keyword argument '{key}=' for a "
                        f"Program (accepted: {', '.join(_PROGRAM_OPTIONS)})", 2)
        if value is None:
            continue
        if key in ("algorithm", "effort", "target"):
            setattr(opts, key, str(value))
        elif key == "time_limit":
            opts.time_limit_seconds = float(value)
        elif key == "alignment":
            opts.alignment = _bytes(value)
        elif key == "fast_memory":
            opts.fast_memory_bytes = _bytes(value)
        elif isinstance(value, Mapping):  # capacity={"transient": "256KiB"}
            for pool, size in value.items():
                if pool != "transient":
                    raise Error(f"memplan: error: capacity of pool '{pool}' is not an option "
                                "for a Program (only 'transient')", 2)
                opts.transient_capacity = _bytes(size)
        else:
            opts.capacity = _bytes(value)
    result = _core.plan_program(program._program(), opts)
    if isinstance(result, tuple):
        raise Error(result[1], result[0])
    return result
