// Block prefetching (XLA's block-prefetching mode of memory space
// assignment): before the main pass runs, the weights — constants that ops
// only read (buffers of the constant lifetime: ONNX initializers and folded
// constants, `constant` entry parameters of text IR; a `constant` op's
// result is written at its step and so is none), never model inputs (entry
// parameters of another lifetime, such as ONNX graph inputs) — are
// prefetched in FIFO order of their first use into a block of alternate
// memory reserved for them. The copies are issued back to back on the one
// copy queue (each no earlier than the one before it), a weight's slot in
// the block is free again once its last read has passed, and the main pass
// then treats the block's weights as placed: it plans every other buffer
// (model inputs included) in the alternate memory outside the block.
//
// memplan's conventions (msa/assignment.h): a block prefetch is an ordinary
// prefetch (AsyncCopy::block set) that opens one alternate segment of the
// weight, [max(start, 0), last read], at the weight's slot; it is done at
// the weight's first read. A slot may be reused by a later weight whose
// segment starts after the earlier one's ends (segments never share a
// step). The block is the top of alternate memory: [offset, offset + size)
// with offset = the largest multiple of the alignment <= fast memory - size.
//
// Differences from XLA (docs/msa.md "Block prefetching"): memplan picks
// each copy's start as the earliest own step of the entry computation, not
// before the previous copy's start, at which a slot fits (first fit in the
// block); a weight that finds no slot before its first read stays in
// default memory and the FIFO goes on with the next. Only weights whose
// reads and whose whole segment lie in steps of the entry computation
// (no callee, loop or branch ops in between) are block prefetched.
#pragma once

#include <vector>

#include "ir/units.h"
#include "msa/problem.h"

namespace memplan {

// One weight placed in the block.
struct BlockSlot {
  BufferId buffer = kNoId;
  Bytes offset = 0;       // absolute offset in alternate memory (inside the block)
  Bytes bytes = 0;        // the weight's size
  TimeStep start = 0;     // copy-start step (-1: before the first op)
  TimeStep done = 0;      // copy-done step = the weight's first read
  TimeStep last_use = 0;  // the weight's last read: its slot is held through it
};

// The reserved block and the weights in it, in FIFO (issue) order.
struct BlockPlan {
  Bytes offset = 0;  // first byte of the block in alternate memory
  Bytes size = 0;    // bytes of the block (0: no block)
  std::vector<BlockSlot> slots;
};

// The bytes the block may take of `fast_memory_bytes` when `requested`
// bytes are asked for: min(requested, fast_memory_bytes), and its offset as
// described at the top of this file. Both in bytes; requested <= 0 gives an
// empty block at offset fast_memory_bytes.
// Example: fast 1000, requested 300, alignment 64: offset 640, size 300.
BlockPlan ReserveBlock(Bytes fast_memory_bytes, Bytes requested, Bytes alignment);

// Default mode's block size when none is given (MsaOptions::
// auto_block_prefetch): fast memory / kAutoBlockDivisor. A small share, so
// that the block takes little from the main pass: the one size of fast
// memory / 2, 4, 8, ..., 256 (and the pair of two of them hardly adds) with
// the most mean captured speed-up over the 120 rows of bench/msa_table.sh
// (docs/msa.md "Block prefetching").
inline constexpr Bytes kAutoBlockDivisor = 32;
inline Bytes AutoBlockSize(Bytes fast_memory_bytes) { return fast_memory_bytes / kAutoBlockDivisor; }

// Whether buffer `b` of `problem` is a weight block prefetching may take:
// a kReadCopies buffer holding a constant (MsaBuffer::constant: lifetime
// constant, so not a model input such as an external entry parameter) of
// size in (0, block_size], never written by an op, read at least once, every
// access alternate_ok and not a control-only access, and every step from
// its first to its last read owned by `entry` (problem.timeline).
bool IsBlockWeight(const MsaProblem& problem, BufferId b, ComputationId entry, Bytes block_size);

// Plans the block: the weights of `problem` (IsBlockWeight) taken in order
// of first read (ties: lower BufferId), each given the earliest start t —
// an own step of `entry` before its first read, or -1 for a constant entry
// parameter when `entry` runs step 0, and never before the previous
// weight's start — at which an `alignment`-aligned slot of its size inside
// `block` is free over [max(t, 0), last read] (lowest such offset). Weights
// with no such start are left out. Fills block.slots in FIFO order.
// O(weights^2 x steps).
void PlanBlockPrefetch(const MsaProblem& problem, ComputationId entry, Bytes alignment,
                       BlockPlan& block);

}  // namespace memplan
