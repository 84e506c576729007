// Per-op cost of a TFLite builtin for memory space assignment's cost model
// (Op::cost): flops from the shapes for the common compute builtins; every
// other op (unknown builtins, custom ops) gets bytes only (the default: the
// sum of its operand and result sizes).
//
// Rules (element counts from the output shape, multiply-adds counted as 2):
//   CONV_2D            2 * out * kh * kw * cin   (filter [cout, kh, kw, cin])
//   DEPTHWISE_CONV_2D  2 * out * kh * kw         (filter [1, kh, kw, cout])
//   FULLY_CONNECTED    2 * out * in              (weights [out_units, in])
//   ADD, SUB, MUL, RELU, pools, MEAN   out (pools and MEAN: their input's elements)
//   LOGISTIC, TANH, SOFTMAX            out transcendentals
// Example: CONV_2D to [1,48,48,8] with filter [8,3,3,1] -> 331776 flops.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/program.h"

namespace memplan {

// `dims` of each operand (absent optional inputs are left out) and result,
// in op order.
OpCost TfliteOpCost(std::int32_t builtin, const std::vector<std::vector<std::int64_t>>& inputs,
                    const std::vector<std::vector<std::int64_t>>& outputs);

}  // namespace memplan
