// Per-instruction cost of HLO from shapes alone, for memplan's cost model
// (msa/cost_model.h): flops, transcendentals and bytes accessed, as XLA's
// HloCostAnalysis counts them for the common opcodes.
#pragma once

#include <functional>
#include <vector>

#include "io/hlo/module.h"
#include "ir/program.h"

namespace memplan {

// The shapes an instruction's operands have (parallel to its operands).
using HloOperandShapes = std::vector<const HloShape*>;

// Cost of `instr` whose operands have `operands` shapes:
//  * dot: 2 * result elements * product of the lhs contracting dims;
//  * convolution: 2 * result elements * kernel elements / output features
//    (the kernel dim labelled 'o' in dim_labels);
//  * elementwise arithmetic (add, multiply, compare, select, ...): one flop
//    per result element; transcendentals (exponential, log, tanh, logistic,
//    rsqrt, sqrt, power, sine, ...): one per result element;
//  * reduce: one flop per element of its first operand; reduce-window: one
//    per result element per window element;
//  * fusion: the sum of its called computation's instructions (`fused` is
//    that cost, computed by the caller), bytes accessed = operands + results;
//  * tuple, get-tuple-element, bitcast, parameter: nothing, 0 bytes
//    accessed; anything else (unknown opcodes included): no flops and the
//    default bytes accessed (operands + results).
OpCost HloInstructionCost(const HloInstruction& instr, const HloOperandShapes& operands,
                          const OpCost* fused);

}  // namespace memplan
