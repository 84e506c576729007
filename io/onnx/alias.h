// Views and in-place results for an imported ONNX program (OnnxImportOptions::alias).
//
// Reads the entry computation's schedule and marks:
//  * views: the result of onnx.Reshape, onnx.Flatten, onnx.Squeeze,
//    onnx.Unsqueeze and onnx.Identity becomes AliasKind::kView (offset 0) of
//    its data operand: these ops only reinterpret dims. The op then moves no
//    data (cost.bytes_accessed = 0).
//  * concat views: an onnx.Concat along an outer axis (every dim before the
//    axis is 1, so each input is one contiguous byte range of the result)
//    whose inputs are transient results of this run, pairwise in different
//    alias sets, each dead after the concat (its whole alias set's last use
//    is there) and not part of a larger set (the set spans exactly the
//    input), gathers them: the result records `gathers(%in0, 0, %in1,
//    size0, ...)`, so each producer writes straight into its slice, and the
//    concat moves no data (cost.bytes_accessed = 0). concat(x, x) and
//    inner-axis concats stay copies.
//  * split views: each result of an onnx.Split along an outer axis of a
//    transient input dead after it becomes a view of the input at its slice's
//    byte offset (bytes_accessed = 0). Inner-axis splits stay copies.
//  * slice views: the result of a static onnx.Slice (its op carries the
//    `starts` the importer resolved) whose window is one contiguous run of
//    a transient input (ContiguousSliceOffset, io/onnx/slice_view.h: every
//    dim before the innermost cut one takes one index, every dim after it
//    is whole — e.g. an outer-axis slice) becomes a view of the input at the
//    window's byte offset (bytes_accessed = 0) *when it pays*: a view keeps
//    the input's whole alias set alive while the window is read, so it is
//    made only when that set is read at least as late as anything that may
//    share the window's bytes (its views, ties, pieces: ReachOfValues in
//    alias.cc), or when the window is the set's every byte. Then no step
//    holds more bytes than with the copy, and the steps from the slice to
//    the window's last read hold the window's size less. A slice of an
//    input that dies earlier stays a copy: from the input's death to the
//    window's last read the view would hold the whole input (input size -
//    window size more bytes) to save the window's bytes at the slice alone.
//    An elementwise op does not write in place into a set holding a slice
//    view while it reads another member of it (they may overlap).
//  * ties: the first result of an elementwise op (Relu, Add, Mul, Sigmoid,
//    Clip, ... see kInPlaceOps in onnx_alias.cc) becomes AliasKind::kTied to
//    its first operand of the same size whose whole alias set (every value
//    sharing its storage through earlier views and ties) has its last use at
//    this op: the op may overwrite the input element by element.
// Views and ties require the operand and the result to have the same size and a
// reusable lifetime: transient for ties; transient or constant (a constant
// viewed stays constant) for views. Nothing is tied into a constant, and a
// graph input is never aliased. Lifetimes are read from Value::lifetime
// (unset means transient, as the importer leaves them).
//  * outputs written in place: a graph output that a node produces (external,
//    the caller's buffer) may be the result of a view, a tie or a concat
//    gather of transient values made in this run, when their whole alias set
//    spans exactly the output's bytes. The set then lives in the caller's
//    buffer: the producers write straight into it, as ONNX Runtime's
//    in-place Add into an output does, and its bytes leave the transient
//    pool. Two graph outputs never share one set. Example: logits =
//    MatMul(h, w); y = Add(logits, bias) with y a graph output and logits
//    read only there: y is tied to logits, the MatMul writes into y's buffer
//    and no transient copy of the logits is kept.
//  * never a higher peak: every view, concat gather, split, slice view and
//    tie is taken only when it does not raise the peak of the live bytes per
//    schedule position of the alias sets chosen so far (a set counts its
//    extent from its first definition to its last use;
//    io/onnx/alias_profile.h). A view merges sets, which can keep bytes
//    alive longer than the copy would: a DenseNet block's last concat
//    gathering every earlier feature map makes the block's whole output
//    live from the block's first layer. Decisions are made in schedule
//    order; each one never raises the peak, so the default's max-live bytes
//    are never above --no-alias's.
//
// Example: a = Conv(x, w1); b = Conv(x, w2); c = Concat(a, b) along axis 1
// of [1, C, H, W] tensors: c gathers a at 0 and b at a's size: one buffer
// of c's size instead of a, b and c side by side at the concat.
// Example: x = Conv(...) [1,8,4]; y = Slice(x, starts [2], ends [5], axes
// [1]) [1,3,4]; z = Add(x, w) reading x after y's last use: y is a view of x
// at byte 32 (no 48-byte copy). Were z before y's readers, x would die first
// and y stays a copy.
// Example: x = Conv(...); y = Relu(x); z = Reshape(y); w = Sigmoid(z) with x,
// y, z used only there: y is tied to x, z is a view of y, w is tied to z: one
// buffer. Choices are deterministic (schedule order, first eligible operand).
#pragma once

#include "ir/program.h"

namespace memplan {

// Applies the rules above to `program`'s entry computation in place.
void AssignOnnxAliases(Program& program);

}  // namespace memplan
