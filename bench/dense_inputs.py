#!/usr/bin/env python3
"""Writes dense planning inputs for timing `memplan plan` (bench/packing_table.sh).

  dense_inputs.py random N OUT.csv    N rows id,lower,upper,size: lower uniform
                                      in [0, 10^6), length uniform in
                                      [1, 10^4], size log-uniform in
                                      [64 B, 1 MiB] (about 500 live at once)
  dense_inputs.py all-live N OUT.csv  N rows all live during [0, 1)
  dense_inputs.py steps N OUT.csv     N rows over N/10 steps: lower uniform in
                                      [0, N/10), lives 1-20 steps, size
                                      log-uniform in [1 B, 64 KiB] (about 110
                                      live at once: the CSV scaling runs of
                                      docs/packing.md)
  dense_inputs.py ir N OUT.mpir       text IR: N ops produce values, then N
                                      ops read them in reverse: N live at once
  dense_inputs.py hlo N OUT.hlo       a scheduled HLO module of N instructions
                                      in the form of XLA's dumps: residual
                                      blocks of dot, add and tanh on
                                      f32[128,256] over 8 weights, each block
                                      reading the previous two

Fixed seed: the same arguments always write the same file. The benchmarks
generate the same shapes of input in C++ (bench/synthetic.h).
"""
import math
import random
import sys


def write_random(n, out):
    rng = random.Random(1)
    out.write("id,lower,upper,size\n")
    for i in range(n):
        lower = rng.randrange(10**6)
        length = rng.randint(1, 10**4)
        size = int(math.exp(rng.uniform(math.log(64), math.log(1 << 20))))
        out.write(f"{i},{lower},{lower + length},{size}\n")


def write_all_live(n, out):
    rng = random.Random(2)
    out.write("id,lower,upper,size\n")
    for i in range(n):
        size = int(math.exp(rng.uniform(math.log(64), math.log(1 << 20))))
        out.write(f"{i},0,1,{size}\n")


def write_steps(n, out):
    rng = random.Random(4)
    steps = max(1, n // 10)
    out.write("id,lower,upper,size\n")
    for i in range(n):
        lower = rng.randrange(steps)
        length = rng.randint(1, 20)
        size = int(math.exp(rng.uniform(0, math.log(1 << 16))))
        out.write(f"{i},{lower},{lower + length},{size}\n")


def write_ir(n, out):
    rng = random.Random(3)
    out.write("program @all_live\n\nentry func @main() {\n")
    for i in range(n):
        size = int(math.exp(rng.uniform(math.log(64), math.log(1 << 20))))
        out.write(f"  %v{i} = custom.produce() : u8[{size}]\n")
    for i in reversed(range(n)):
        out.write(f"  %c{i} = custom.consume(%v{i}) : u8[1]\n")
    out.write("  return\n}\n")


def write_hlo(n, out):
    shape = "f32[128,256]{1,0}"
    weight = "f32[256,256]{1,0}"
    out.write("HloModule chain, is_scheduled=true\n\n")
    out.write(f"ENTRY %main (x: {shape[:-5]}, w: {weight[:-5]}) -> {shape[:-5]} {{\n")
    out.write(f"  %x = {shape} parameter(0)\n")
    out.write(f"  %w = {weight} parameter(1)\n")
    prev, prev2 = "%x", "%x"
    for i in range(max(n - 3, 1)):
        op = i % 3
        if op == 0:
            line = (f"dot({shape} {prev}, {weight} %w), lhs_contracting_dims={{1}}, "
                    "rhs_contracting_dims={0}")
        elif op == 1:
            line = f"add({shape} {prev}, {shape} {prev2})"
        else:
            line = f"tanh({shape} {prev})"
        out.write(f"  %v{i} = {shape} {line}\n")
        prev2, prev = prev, f"%v{i}"
    out.write(f"  ROOT %r = {shape} negate({shape} {prev})\n}}\n")


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("random", "all-live", "steps", "ir", "hlo"):
        sys.exit(__doc__)
    kind, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    writer = {"random": write_random, "all-live": write_all_live, "steps": write_steps,
              "ir": write_ir, "hlo": write_hlo}[kind]
    with open(path, "w") as out:
        writer(n, out)


if __name__ == "__main__":
    main()
