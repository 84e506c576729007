"""memplan.from_fx: a PyTorch module as a memplan Program.

The module is traced with torch.fx into a graph of ops and run once on the
example inputs (torch.fx's ShapeProp, an interpreter), which gives every
node's shape and dtype and, because the tensors are real, which results
share storage with an operand: those become memplan views (at their byte
offset) or, when the op wrote into its operand (``relu_``, ``add_``,
``nn.ReLU(inplace=True)``), ties. What the runtime aliases is observed, not
guessed from op names.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from ._errors import Error
from ._program import Program

__all__ = ["from_fx"]

# torch dtype name -> memplan dtype (docs/ir.md).
_DTYPES = {
    "float32": "f32", "float16": "f16", "bfloat16": "bf16", "float64": "f64",
    "int8": "i8", "uint8": "u8", "int16": "i16", "int32": "i32", "int64": "i64",
    "complex64": "c64", "complex128": "c128",
}

# Ops that evaluate a transcendental function per output element.
_TRANSCENDENTAL = {"softmax", "_softmax", "log_softmax", "exp", "log", "tanh", "sigmoid",
                   "gelu", "silu", "erf", "Softmax", "GELU", "SiLU", "Sigmoid", "Tanh"}
# Ops that return their operand unchanged when no copy is needed: a shared
# result is a view, not a write in place.
_NO_OP = {"contiguous", "to", "type", "float", "detach", "alias", "lift_fresh", "Identity",
          "Dropout", "dropout"}


def _tracer_class(torch: Any) -> Any:
    class Tracer(torch.fx.Tracer):
        """Traces into every module with children (so a block's adds and
        views are ops of their own); leaves are modules without children
        and nn.MultiheadAttention."""

        def is_leaf_module(self, m: Any, qualified_name: str) -> bool:
            return (not any(True for _ in m.children())
                    or isinstance(m, torch.nn.MultiheadAttention))

    return Tracer


def _trace(torch: Any, module: Any, example_inputs: Sequence[Any]) -> Any:
    """A GraphModule for ``module``: symbolic tracing at module level, or,
    when the module's Python branches on tensor values (e.g.
    nn.TransformerEncoderLayer's fast-path checks), make_fx's trace of the
    ATen ops it ran on the example inputs."""
    try:
        graph = _tracer_class(torch)().trace(module)
        return torch.fx.GraphModule(module, graph)
    except torch.fx.proxy.TraceError:
        from torch.fx.experimental.proxy_tensor import make_fx
        try:
            return make_fx(module)(*example_inputs)
        except Exception as e:  # any failure of the module's own code
            raise Error(f"memplan: error: cannot trace {type(module).__name__}: {e}", 2) from e


def _opcode(gm: Any, node: Any, name: str) -> str:
    """memplan's opcode for a node: its name in a namespace (memplan's own
    opcodes are bare): nn.Conv2d, aten.addmm, torch.relu_."""
    if node.op == "call_module":
        return "nn." + name
    return ("aten." if str(node.target).startswith("aten.") else "torch.") + name


def _op_name(gm: Any, node: Any) -> str:
    if node.op == "call_module":
        return type(gm.get_submodule(node.target)).__name__
    if node.op == "call_method":
        return str(node.target)
    name = str(node.target)
    if name.startswith("aten."):  # aten.addmm.default -> addmm
        return name.split(".")[1]
    return getattr(node.target, "__name__", name)


def _tensors(torch: Any, value: Any) -> List[Any]:
    """The tensors in a node's value (a tensor or a tuple/list of them)."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _tensors(torch, v)]
    return []


def _span(t: Any) -> int:
    """Bytes from a tensor's first to one past its last element."""
    if t.numel() == 0:
        return 0
    last = sum((s - 1) * st for s, st in zip(t.shape, t.stride()))
    return (last + 1) * t.element_size()


def _flops(op: str, module: Any, out: Any, operands: List[Any]) -> Tuple[float, float]:
    """(flops, transcendentals) of one op from its shapes."""
    n = float(out.numel())
    first = operands[0] if operands else None
    if op.startswith("Conv") or op in ("conv1d", "conv2d", "conv3d", "convolution"):
        weight = module.weight if module is not None else (operands[1] if len(operands) > 1
                                                           else None)
        if weight is not None:
            return 2 * n * (weight.numel() / weight.shape[0]), 0
    if op in ("Linear", "linear") and first is not None:
        return 2 * n * first.shape[-1], 0
    if op in ("addmm", "baddbmm") and len(operands) > 1:
        return 2 * n * operands[1].shape[-1], 0
    if op in ("mm", "bmm", "matmul") and first is not None:
        return 2 * n * first.shape[-1], 0
    if op == "MultiheadAttention" and first is not None:
        e = module.embed_dim
        tokens = first.numel() / e
        seq = first.shape[0] if not module.batch_first else first.shape[1]
        return 2 * tokens * e * e * 4 + 4 * tokens * seq * e, tokens * seq
    return n, (n if op in _TRANSCENDENTAL else 0)


def from_fx(module: Any, example_inputs: Sequence[Any], *, name: Optional[str] = None,
            fold_batchnorm: bool = True) -> Program:
    """Traces ``module`` (a ``torch.nn.Module``) on ``example_inputs`` (a
    tuple of tensors) and returns it as a built memplan ``Program``:

    * placeholders (the inputs) become parameters of the entry (external);
      module parameters and buffers become constant parameters;
    * each node that computes tensors becomes one op, its results typed as
      the tensors ShapeProp saw; flops from the shapes (2·MACs for
      convolutions and matmuls, one per output element otherwise);
    * a result that shares storage with an operand becomes a view of it
      at the byte offset observed (view, reshape, flatten, transpose,
      permute, slicing, narrow, squeeze, unsqueeze, expand, split, ...),
      or a tie when the op returned its operand after writing into it
      (``relu_``, ``add_``, ``+=``, ``nn.ReLU(inplace=True)``);
    * with ``fold_batchnorm`` and the module in eval mode, a BatchNorm
      that alone reads a convolution's result is folded into it (as ONNX
      export and inference runtimes do): no op, the convolution's value;
    * the graph's outputs are the entry's return values.

    Runs the module once (under ``torch.no_grad``). Raises Error (exit code
    2) for a module that neither torch.fx nor make_fx can trace, and as
    ``Program.build`` for a graph memplan rejects."""
    import torch
    import torch.fx
    from torch.fx.passes.shape_prop import ShapeProp

    # Traced with autograd on: without it nn.TransformerEncoderLayer takes
    # its fused fast path, one opaque kernel.
    gm = _trace(torch, module, example_inputs)
    names = {id(t): n for n, t in list(module.named_parameters()) + list(module.named_buffers())}
    with torch.no_grad():
        runs: Dict[Any, Any] = {}

        class Recorder(ShapeProp):
            def run_node(self, n: Any) -> Any:
                args = [a for a in n.all_input_nodes]
                inputs = {a: self.env[a] for a in args}
                result = super().run_node(n)
                runs[n] = (result, inputs)
                return result

        Recorder(gm).propagate(*example_inputs)
    return _FxImport(torch, gm, runs, names, not module.training and fold_batchnorm).build(
        name or type(module).__name__)


class _FxImport:
    """Turns a traced, run GraphModule into Program calls."""

    def __init__(self, torch: Any, gm: Any, runs: Dict[Any, Any], names: Dict[int, str],
                 fold_batchnorm: bool):
        self.torch, self.gm, self.runs, self.fold = torch, gm, runs, fold_batchnorm
        self.names = names                       # id(parameter) -> its name in the module
        self.values: Dict[Any, List[int]] = {}   # node -> memplan values of its tensors
        self.sizes: Dict[int, int] = {}          # memplan value -> its bytes
        self.constants: Dict[int, int] = {}      # id(tensor) -> constant parameter

    def build(self, name: str) -> Program:
        self.p = Program(name)
        self.main = self.p.add_function("main")
        self.p.set_entry(self.main)
        outputs: List[int] = []
        for node in self.gm.graph.nodes:
            if node.op == "output":
                outputs = self._outputs(node)
            elif node.op == "placeholder":
                self.values[node] = [self._param(node.name, t) for t in self._run(node)]
            elif node.op == "get_attr":
                self.values[node] = [self._constant(node.target, t) for t in self._run(node)]
            else:
                self._compute(node)
        self.p.set_return(self.main, outputs)
        return self.p.build()

    def _run(self, node: Any) -> List[Any]:
        return _tensors(self.torch, self.runs[node][0])

    def _type(self, t: Any) -> Tuple[Any, Optional[List[int]]]:
        dtype = _DTYPES.get(str(t.dtype).replace("torch.", ""))
        if dtype is None:
            return t.numel() * t.element_size(), None
        return dtype, list(t.shape)

    def _param(self, name: str, t: Any) -> int:
        v = self.p.add_param(self.main, name, *self._type(t))
        self.sizes[v] = t.numel() * t.element_size()
        return v

    def _constant(self, name: str, t: Any) -> int:
        if id(t) not in self.constants:
            v = self._param(self.names.get(id(t), name), t)
            self.p.set_lifetime(v, "constant")
            self.constants[id(t)] = v
        return self.constants[id(t)]

    def _outputs(self, node: Any) -> List[int]:
        out: List[int] = []
        for arg in node.all_input_nodes:
            for v in self.values.get(arg, []):
                if v not in out:
                    out.append(v)
        return out

    def _compute(self, node: Any) -> None:
        torch = self.torch
        result, inputs = self.runs[node]
        module = self.gm.get_submodule(node.target) if node.op == "call_module" else None
        op = _op_name(self.gm, node)
        # getitem of a multi-result op: that result, no op of its own.
        if op == "getitem" and not isinstance(self.runs[node.args[0]][0], torch.Tensor):
            source = node.args[0]
            index = node.args[1]
            tensors = self._run(source)
            if isinstance(index, int) and isinstance(result, torch.Tensor):
                for t, v in zip(tensors, self.values.get(source, [])):
                    if t is result:
                        self.values[node] = [v]
                        return
            self.values[node] = []
            return
        outs = _tensors(torch, result)
        if not outs:
            self.values[node] = []
            return
        operand_nodes = [a for a in node.all_input_nodes if self.values.get(a)]
        if self.fold and self._folds(node, module, operand_nodes):
            self.values[node] = list(self.values[operand_nodes[0]])
            return
        operands: List[int] = []
        operand_tensors: List[Tuple[Any, int]] = []
        for a in operand_nodes:
            for t, v in zip(self._run(a), self.values[a]):
                operands.append(v)
                operand_tensors.append((t, v))
        if module is not None:  # a leaf's weights are constant operands
            for pname, t in module.named_parameters():
                operands.append(self._constant(f"{node.target}.{pname}", t))
            for bname, t in module.named_buffers():
                operands.append(self._constant(f"{node.target}.{bname}", t))
        flops, transcendentals = _flops(op, module, outs[0], [t for t, _ in operand_tensors])
        o = self.p.add_op(self.main, _opcode(self.gm, node, op), operands, flops=flops, transcendentals=transcendentals)
        values: List[int] = []
        for i, t in enumerate(outs):
            rname = node.name if len(outs) == 1 else f"{node.name}.{i}"
            alias = self._alias(t, operand_tensors, op)
            if alias is None:
                v = self.p.add_result(o, rname, *self._type(t))
                self.sizes[v] = t.numel() * t.element_size()
            elif alias[0] == "tie":
                v = self.p.add_result(o, rname, self.sizes[alias[1]])
                self.sizes[v] = self.sizes[alias[1]]
                self.p.tie(v, alias[1])
                self._redirect(alias[1], v)
            else:
                v = self.p.add_result(o, rname, _span(t))
                self.sizes[v] = _span(t)
                self.p.view(v, alias[1], alias[2])
            values.append(v)
        self.values[node] = values

    def _folds(self, node: Any, module: Any, operand_nodes: List[Any]) -> bool:
        """A BatchNorm alone reading a convolution's one result."""
        if module is None or not isinstance(module, self.torch.nn.modules.batchnorm._BatchNorm):
            return False
        if len(operand_nodes) != 1 or len(operand_nodes[0].users) != 1:
            return False
        source = operand_nodes[0]
        return (source.op == "call_module" and isinstance(
            self.gm.get_submodule(source.target), self.torch.nn.modules.conv._ConvNd))

    def _alias(self, t: Any, operands: List[Tuple[Any, int]], op: str) -> Optional[tuple]:
        """("tie", v) when the op wrote into operand v and returned it,
        ("view", v, offset) when the result is a window of v's storage,
        None for fresh storage."""
        for ot, v in operands:
            if t is ot and op not in _NO_OP and self.sizes[v] == _span(t):
                return ("tie", v)
        for ot, v in operands:
            if ot.numel() == 0 or t.numel() == 0:
                continue
            if t.storage().data_ptr() != ot.storage().data_ptr():
                continue
            offset = t.data_ptr() - ot.data_ptr()
            if 0 <= offset and offset + _span(t) <= self.sizes[v]:
                return ("view", v, offset)
        return None

    def _redirect(self, old: int, new: int) -> None:
        """After a write in place, later readers of the overwritten value
        read the tied result (the same bytes, written)."""
        for node, vs in self.values.items():
            self.values[node] = [new if v == old else v for v in vs]
