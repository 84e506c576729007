// XLA's memory-space copies: the copy-start/copy-done pairs that memory space
// assignment inserts for a prefetch (default -> alternate memory, `S(1)`) or
// an eviction (alternate -> default). memplan plans memory spaces itself, so
// the importer folds such a pair into its source value (the copy-done is the
// source's storage, no op) and `plan --emit-hlo` writes its own pairs.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "io/hlo/module.h"

namespace memplan {

// True when `in` is a copy-start of one array operand whose result is XLA's
// `(dst, src, u32[])` tuple with dst and src of the same array shape in
// different memory spaces (no `S(n)` is space 0).
// Example: `(f32[4]{0:S(1)}, f32[4]{0}, u32[]) copy-start(%a)` -> true.
bool IsMemorySpaceCopyStart(const HloInstruction& in);

// The memory-space copy-starts of `comp` that are read by exactly one
// instruction, a copy-done (name -> index): the pairs the importer folds.
std::map<std::string, std::size_t> FoldedSpaceCopies(const HloComputation& comp);

}  // namespace memplan
