#!/usr/bin/python3
"""Exports examples/rnn_loop.onnx: a GRU cell looped over a fixed-length
sequence by TorchScript, so the ONNX graph holds a real `Loop` (with its
trip count computed from the input's shape, the hidden state and a running
sum of its activations as loop-carried values).

Usage: /usr/bin/python3 scripts/export_rnn_loop.py [OUTPUT]
Needs Debian's python3-torch and python3-onnx (apt-get install -y
python3-torch python3-onnx). The weights are random with a fixed seed:
memplan plans from shapes alone and never reads them.
"""
import sys

import onnx
import torch

SEQ, BATCH, FEATURES, HIDDEN = 16, 4, 32, 64


class GruCell(torch.nn.Module):
    """torch.nn.GRUCell's equations, spelled out (the exporter has no
    aten::gru_cell)."""

    def __init__(self):
        super().__init__()
        self.input_gates = torch.nn.Linear(FEATURES, 3 * HIDDEN)
        self.hidden_gates = torch.nn.Linear(HIDDEN, 3 * HIDDEN)

    def forward(self, x: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
        xr, xz, xn = self.input_gates(x).chunk(3, 1)
        hr, hz, hn = self.hidden_gates(h).chunk(3, 1)
        r = torch.sigmoid(xr + hr)
        z = torch.sigmoid(xz + hz)
        n = torch.tanh(xn + r * hn)
        return (1 - z) * n + z * h


class GruLoop(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = GruCell()
        self.head = torch.nn.Linear(HIDDEN, 8)

    def forward(self, x: torch.Tensor, h: torch.Tensor):
        # Loop-carried state only: a Python list would export as ONNX
        # sequences, which memplan does not plan.
        total = torch.zeros_like(h)
        for t in range(x.size(0)):
            h = self.cell(x[t], h)
            total = total + torch.relu(h)
        return self.head(total / x.size(0)), h


def main() -> None:
    output = sys.argv[1] if len(sys.argv) > 1 else "examples/rnn_loop.onnx"
    torch.manual_seed(0)
    model = torch.jit.script(GruLoop().eval())
    x = torch.randn(SEQ, BATCH, FEATURES)
    h = torch.zeros(BATCH, HIDDEN)
    torch.onnx.export(model, (x, h), output, opset_version=13,
                      input_names=["x", "h0"], output_names=["y", "h_last"])
    m = onnx.load(output)
    onnx.checker.check_model(m)
    ops = sorted({n.op_type for n in m.graph.node})
    print(f"wrote {output}: opset 13, main-graph ops {ops}")


if __name__ == "__main__":
    main()
