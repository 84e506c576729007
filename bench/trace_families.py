#!/usr/bin/env python3
"""Writes generated allocation traces that look like real compiler traces.

MiniMalloc's CSV form (id,lower,upper,size; half-open [lower, upper)), the
form of the shared traces (../shared/data/traces). Real traces differ from
uniform random rows: times are op indices (several buffers start at one op),
sizes come from a small palette of tensor shapes (PanGu's 18,692 buffers have
33 distinct sizes), most buffers die within a few ops while a few live for
most of the program. Three families:

  weights  N OUT.csv   inference with a few huge long-lived buffers: per layer
                       its weights (live from their layer to the end, or the
                       whole run), a KV cache (whole run), and many short-lived
                       activations and tiny scalars; a residual stream value
                       per layer
  training N OUT.csv   layered training: forward activations kept for the
                       backward pass and freed in reverse order during it,
                       short-lived temporaries, weight gradients live until
                       the optimizer steps at the end
  dense    N OUT.csv [--live W]
                       N buffers with about W live at once (default 1000;
                       100-5,000 is typical), sizes from a palette of 48
                       log-spaced sizes in 1 B-1 GiB, small ones far more
                       often (as many buffers above 1 % of the peak as in
                       the shared real traces), lifetimes log-normal, a few
                       buffers live through the whole run

  trace_families.py weights 100000 out.csv --seed 2

Fixed seed per (family, N, seed, W): the same arguments always write the
same file. Use several seeds per size: never tune a constant to one file.
"""
import argparse
import math
import random
import sys

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB


class Trace:
    """Buffers as (lower, upper, size) with half-open [lower, upper)."""

    def __init__(self):
        self.rows = []

    def add(self, lower, upper, size):
        if upper <= lower:
            upper = lower + 1
        self.rows.append((lower, upper, max(1, int(size))))

    def write(self, out):
        out.write("id,lower,upper,size\n")
        lines = [f"{i},{lo},{up},{sz}\n" for i, (lo, up, sz) in enumerate(self.rows)]
        out.writelines(lines)


def palette(rng, count, low, high, quantum):
    """`count` distinct tensor sizes, log-uniform in [low, high], rounded to
    `quantum` bytes (most real sizes are multiples of 512 B)."""
    sizes = set()
    while len(sizes) < count:
        s = math.exp(rng.uniform(math.log(low), math.log(high)))
        q = quantum if s >= quantum else 1
        sizes.add(max(1, int(round(s / q)) * q))
    return sorted(sizes)


def weights_family(n, rng):
    """LLM-style inference: L layers of a transformer block."""
    t = Trace()
    hidden = rng.choice([1024, 2048, 4096, 5120])
    seq = rng.choice([128, 512, 2048])
    dtype = 2
    act = hidden * seq * dtype                      # one activation
    # Real models have tens of layers, not thousands: a longer trace has
    # more ops per layer (a bigger block, or more decode steps).
    layers = min(96, max(2, n // 300))
    ops_per_layer = max(8, math.ceil(n / layers / 1.3))
    end = layers * ops_per_layer + 8
    small = palette(rng, 8, 1, 4 * KIB, 64)
    # Scaled so that the whole run is a few GiB at most whatever N.
    weight_size = min(4 * hidden * hidden * dtype, GIB // 4)
    kv_size = min(2 * seq * hidden * dtype, GIB // 4)
    for layer in range(layers):
        base = layer * ops_per_layer
        if len(t.rows) >= n:
            break
        # Weights: most live the whole run (resident), some are loaded for
        # their layer only (streamed weights).
        for w in range(3):
            size = weight_size // (1 + w)
            if rng.random() < 0.5:
                t.add(0, end, size)
            else:
                t.add(max(0, base - 2), base + ops_per_layer, size)
        if layer % 4 == 0:
            t.add(0, end, kv_size)                  # a KV cache: whole run
        residual_start = base
        t.add(residual_start, base + ops_per_layer + 1, act)  # residual stream
        # Short-lived activations: each op's outputs, read by the next 1-4 ops.
        for op in range(ops_per_layer):
            now = base + op
            outputs = 1 + (rng.random() < 0.3)
            for _ in range(outputs):
                kind = rng.random()
                if kind < 0.55:
                    size = act * rng.choice([1, 1, 1, 2, 4]) // rng.choice([1, 1, 2])
                elif kind < 0.75:
                    size = seq * seq * dtype * rng.choice([1, 2, 4])   # attention scores
                else:
                    size = rng.choice(small)                          # scalars, shapes
                # Most are read by the next op or two; some (Q, K, V, a
                # block's input) stay for a part of the layer.
                if rng.random() < 0.1:
                    life = 1 + rng.randrange(max(1, ops_per_layer // 3))
                else:
                    life = 1 + int(rng.expovariate(1 / 1.5))
                t.add(now, now + life, size)
    t.rows = t.rows[:n]
    return t


def training_family(n, rng):
    """Layered training: forward ops keep some outputs for the backward pass,
    which frees them in reverse order; weight gradients live to the optimizer
    step at the end."""
    t = Trace()
    # Per forward op: its output, sometimes a temporary, 12 % saved for
    # backward; per backward op: an activation gradient, a temporary, and
    # every fourth op a weight gradient: about 1.4 buffers a forward op and
    # 2.25 a backward op.
    ops = max(2, math.ceil(n / 3.6))
    sizes = palette(rng, 24, 4 * KIB, 64 * MIB, 512)
    small = palette(rng, 6, 4, 2 * KIB, 4)
    # Op i's tensor size shrinks slowly with depth (eight stages).
    op_size = []
    for i in range(ops):
        stage = i * 8 // ops
        op_size.append(sizes[len(sizes) - 1 - min(len(sizes) - 1, stage * 3 + rng.randrange(3))])
    f_end = ops
    end = 2 * ops + 4
    for i in range(ops):
        size = op_size[i]
        back = f_end + (ops - 1 - i)             # backward op of forward op i
        if rng.random() < 0.12:
            t.add(i, back + 1, size)            # saved for backward
            if rng.random() < 0.3:
                t.add(i, back + 1, rng.choice(small) * rng.choice([1, 64]))  # mask, stats
        else:
            t.add(i, i + 1 + int(rng.expovariate(1 / 1.2)), size)
        if rng.random() < 0.4:
            t.add(i, i + 1, size // 2 + 512)    # temporary
    for k, i in enumerate(reversed(range(ops))):
        now = f_end + k
        size = op_size[i]
        t.add(now, now + 2, size)               # activation gradient
        if rng.random() < 0.5:
            t.add(now, now + 1, size)           # temporary
        if k % 4 == 0:
            t.add(now, end, max(64, size // rng.choice([8, 16, 64])))  # weight gradient
        if rng.random() < 0.5:
            t.add(now, now + 1, rng.choice(small))
    t.rows = t.rows[:n]
    return t


def dense_family(n, rng, live):
    """About `live` buffers live at once; one allocation per step on average,
    log-normal lifetimes with mean `live` steps."""
    t = Trace()
    sizes = palette(rng, 48, 1, GIB, 512)
    # Most tensors are small: the palette's i-th size has weight
    # 1 / (1 + i)^1.3, so that about 2.5 % of the buffers are above 1 % of the
    # peak (the shared real traces: PanGu 0.2 %, iopddl 2.6 %, SOMAS ResNet-50
    # 4.5 %; a flatter 1 / (1 + i)^0.6 made 5-8 %, far more big blocks than
    # any real trace).
    weights = [1.0 / (1 + i) ** 1.3 for i in range(len(sizes))]
    sigma = 1.5
    mu = math.log(live) - sigma * sigma / 2
    steps = n
    # Buffers that span the whole run (inputs, outputs, weights).
    resident = max(1, n // 2000)
    for _ in range(resident):
        t.add(0, steps + 1, rng.choices(sizes[: len(sizes) // 2], k=1)[0])
    # Allocations arrive in bursts at op boundaries: several per op.
    now = 0
    while len(t.rows) < n:
        burst = 1 + int(rng.expovariate(1 / 2.0))
        for _ in range(burst):
            life = max(1, int(rng.lognormvariate(mu, sigma)))
            size = rng.choices(sizes, weights=weights, k=1)[0]
            # Cap the huge ones' lifetime so the run stays plausible.
            if size >= 64 * MIB:
                life = max(1, life // 8)
            t.add(now, now + life, size)
        now += burst
    t.rows = t.rows[:n]
    return t


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("family", choices=["weights", "training", "dense"])
    parser.add_argument("n", type=int, help="number of buffers")
    parser.add_argument("out", help="output CSV, or - for standard output")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--live", type=int, default=1000,
                        help="dense: buffers live at once (about)")
    args = parser.parse_args()
    if args.n < 1:
        sys.exit("trace_families.py: N must be at least 1")
    rng = random.Random(f"{args.family}/{args.n}/{args.seed}/{args.live}")
    if args.family == "weights":
        trace = weights_family(args.n, rng)
    elif args.family == "training":
        trace = training_family(args.n, rng)
    else:
        trace = dense_family(args.n, rng, args.live)
    if args.out == "-":
        trace.write(sys.stdout)
    else:
        with open(args.out, "w") as out:
            trace.write(out)


if __name__ == "__main__":
    main()
