// Per-op cost of an ONNX node from its static shapes, for the memory space
// assignment cost model (Op::cost). Conventions follow XLA's HloCostAnalysis:
// a multiply-add is 2 flops, and transcendental element functions count as
// transcendentals, not flops.
//
// Let E(t) be t's element count, X/W/B/Y a node's data, weight, bias and
// output. Flops by op (default domain only):
//   Conv             2 * E(Y) * E(W) / W.dims[0]  (+ E(Y) with a bias)
//   ConvTranspose    2 * E(X) * E(W) / W.dims[0]  (+ E(Y) with a bias)
//   Gemm             2 * M * N * K  (+ M * N with C), Y = [M, N], K = E(A) / M
//   MatMul           2 * E(Y) * K, K = A's last dim
//   elementwise      1 per output element (Add, Relu, Clip, Max, ...); n-input
//                    Sum/Max/Min n-1 and Mean n per element
//   transcendental   1 transcendental per output element, 0 flops (Exp, Log,
//                    Tanh, Sigmoid, Erf, Sqrt, Pow, Sin, Elu, Softplus, ...)
//   MaxPool, AveragePool, LpPool   E(Y) * product(kernel_shape)
//   Global*Pool      E(X)
//   BatchNormalization   2 * E(Y)  (inference: scale and shift per element)
//   LayerNormalization, InstanceNormalization   7 * E(Y) (mean, center,
//                    square-accumulate, normalize, scale and shift) and one
//                    transcendental (rsqrt) per normalized group
//   LRN              2 * size * E(Y) and E(Y) transcendentals (the power)
//   Softmax, LogSoftmax  4 * E(Y) and E(Y) transcendentals (max, subtract,
//                    exp, sum, divide)
//   Reduce*, ArgMax, ArgMin   E(X)
//   everything else  0 (data movement such as Concat, Slice, Gather,
//                    Transpose, Reshape, Pad, Cast; custom-domain ops)
// bytes_accessed is the bytes of every present input and output position
// (an input read twice counts twice), except Shape and Size, which read only
// metadata and count their output alone; the sum saturates at the int64
// maximum instead of overflowing. Flops are doubles (no overflow below 1e308).
#pragma once

#include <span>

#include "io/onnx/shapes.h"
#include "ir/program.h"
#include "onnx/onnx_pb.h"

namespace memplan {

// The cost of `node` given its inputs and outputs by position (nullptr for an
// omitted optional one). Missing tensors a formula needs give 0 flops.
OpCost OnnxNodeCost(const onnx::NodeProto& node, std::span<const OnnxTensorType* const> inputs,
                    std::span<const OnnxTensorType* const> outputs);

}  // namespace memplan
