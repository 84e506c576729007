// Constant-only ops of an imported ONNX program leave the schedule.
//
// An op of the entry computation whose results all have the constant
// lifetime — its inputs are all constants (initializers, Constant nodes,
// Transpose/DequantizeLinear/Reshape/... of them) or it reads only a shape
// (Shape, Size) — computes the same bytes on every run. Runtimes fold such
// ops once, when the model is loaded (ONNX Runtime's constant folding, the
// TFLite converter), so they take no step of the run's timeline:
//  * a *view* op (Reshape, Flatten, Squeeze, Unsqueeze, Identity; same size
//    as its input), when `alias` is on, disappears: its readers read its
//    input instead (a weight seen through another shape is the same bytes);
//  * any other folded op's results become parameters of the entry, of the
//    constant lifetime, appended after the existing ones in schedule order
//    (a computed weight still takes constant storage, as an initializer);
//  * a constant parameter that only folded ops read is dropped: the folded
//    result replaces it, as a runtime frees the original after folding.
// Constants nothing ever read stay. Ops in called computations (loop bodies,
// branches) are not touched, nor ops with callees, custom-domain ops or
// results of the graph (they are external).
//
// Example: W = initializer f32[64,32]; Wt = Transpose(W); y = MatMul(x, Wt)
// imports as @main(%x, %W constant) { %Wt = onnx.Transpose(%W); %y =
// onnx.MatMul(%x, %Wt) } and leaves here as @main(%x, %Wt: f32[32,64]
// constant) { %y = onnx.MatMul(%x, %Wt) }: one step, 8 KiB of constants.
#pragma once

#include "ir/program.h"

namespace memplan {

// Applies the rules above to `program` in place (run before
// AssignOnnxAliases). O(values + ops + operands).
void HoistConstantOps(Program& program, bool alias);

}  // namespace memplan
