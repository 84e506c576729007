#!/usr/bin/env python3
"""Irregular DAGs for bench/reorder_table.sh, as memplan text IR.

Writes into OUT_DIR one FAMILY-OPS.mpir per family and size, ops listed in
node-id order (the order an exporter walking the graph would write):
  randwire      randomly wired cells (Xie et al. 2019, "Exploring randomly
                wired neural networks"): a Watts-Strogatz graph (k=4,
                p=0.75) oriented from lower to higher node ids;
  inception     inception blocks: four branches of different widths and
                depths joined by a concat, repeated;
  dense         DenseNet-style blocks: each layer reads every earlier one;
  transformer   multi-branch transformer layers: q, k, v projections, the
                seq x seq scores, softmax, context, output projection,
                residual, a 4x MLP.
Deterministic (fixed seeds). Usage: irregular_dags.py OUT_DIR
"""
import os
import random
import sys

KIB = 1024


class Writer:
    def __init__(self, name):
        self.name = name
        self.lines = []
        self.count = 0

    def op(self, operands, size, opcode="custom.op"):
        self.count += 1
        v = f"n{self.count}"
        args = ", ".join(f"%{o}" for o in operands)
        self.lines.append(f"  %{v} = {opcode}({args}) : {size}")
        return v

    def write(self, out_dir, result, input_size):
        path = os.path.join(out_dir, f"{self.name}-{self.count}.mpir")
        with open(path, "w") as f:
            f.write(f"entry func @main(%x: {input_size}) {{\n")
            f.write("\n".join(self.lines) + "\n")
            f.write(f"  return %{result}\n}}\n")


def randwire(n, seed):
    rng = random.Random(seed)
    k, p = 4, 0.75
    edges = set()
    for i in range(n):
        for j in range(1, k // 2 + 1):
            a, b = i, (i + j) % n
            if rng.random() < p:
                b = rng.randrange(n)
                while b == a:
                    b = rng.randrange(n)
            edges.add((min(a, b), max(a, b)))
    preds = [[] for _ in range(n)]
    for a, b in sorted(edges):
        preds[b].append(a)
    w = Writer("randwire")
    names = []
    for i in range(n):
        size = rng.choice([64, 128, 256, 512]) * KIB
        names.append(w.op([names[q] for q in preds[i]] or ["x"], size))
    sinks = [names[i] for i in range(n) if not any(i in preds[j] for j in range(i + 1, n))]
    out = w.op(sinks, 64 * KIB)
    return w, out


def stacked(name, blocks, seed, widths, block):
    """`blocks` copies of block(w, x, width) in a row, each reading the
    previous one's output x, each with a width drawn from `widths` (KiB)."""
    rng = random.Random(seed)
    w = Writer(name)
    x = "x"
    for _ in range(blocks):
        x = block(w, x, rng.choice(widths) * KIB)
    return w, x


def inception_block(w, x, base):
    b1 = w.op([x], base)
    b2 = w.op([w.op([x], base // 2)], base * 2)
    b3 = w.op([w.op([w.op([x], base // 4)], base)], base)
    b4 = w.op([w.op([x], base * 4)], base // 2)
    return w.op([b1, b2, b3, b4], base * 4, "concatenate")


def inception(blocks, seed):
    return stacked("inception", blocks, seed, [128, 256], inception_block)


def dense(blocks, layers, seed):
    def block(w, x, growth):
        feats = [x]
        for _ in range(layers):
            bottleneck = w.op(feats, 4 * growth)
            feats.append(w.op([bottleneck], growth))
        return w.op(feats, growth * (layers + 1) // 2)

    return stacked("dense", blocks, seed, [32, 64], block)


def transformer_layer(w, x, d):
    q = w.op([x], d)
    k = w.op([x], d)
    v = w.op([x], d)
    scores = w.op([q, k], 4 * d)
    probs = w.op([scores], 4 * d, "softmax")
    ctx = w.op([probs, v], d)
    proj = w.op([ctx], d)
    res = w.op([x, proj], d, "add")
    up = w.op([res], 4 * d)
    act = w.op([up], 4 * d, "gelu")
    down = w.op([act], d)
    return w.op([res, down], d, "add")


def transformer(layers, seed):
    return stacked("transformer", layers, seed, [256, 512], transformer_layer)


def main():
    out_dir = sys.argv[1]
    graphs = [randwire(n, n) for n in (20, 100, 500, 1999)]
    graphs += [inception(b, b) for b in (2, 10, 50, 200)]
    graphs += [dense(b, 8, b) for b in (1, 6, 29, 117)]
    graphs += [transformer(layers, layers) for layers in (2, 8, 40, 166)]
    for w, out in graphs:
        w.write(out_dir, out, 256 * KIB)


if __name__ == "__main__":
    main()
