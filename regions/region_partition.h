// Wrapping a plain program into execution regions, so that a model imported
// without any (ONNX) can be planned the way IREE would allocate it
// (`memplan plan model.onnx --regions [--regions-per N]`).
//
// The entry computation's ops are cut into consecutive chunks of
// `ops_per_region` ops (all in one chunk when 0; folded constant ops do not
// count); each chunk becomes a region @region<k> on `affinity`, run by one
// execute in the entry:
//  * weights (entry parameters of the constant lifetime) become `constant`
//    ops inside the first region that reads them — constant uploads — and
//    later regions receive them as operands; so do ops whose results are all
//    constants (an importer's folded constants, e.g. ONNX ConstantOfShape of
//    a constant shape), keeping the op's name in a `folded` attribute;
//    weights and folded constants no region reads are dropped;
//  * a region's parameters are the values it reads that other chunks
//    define (or entry parameters); its results are the values it defines
//    that later chunks read or the entry returns (the entry returns the
//    execute's results in their place);
//  * everything else a chunk defines is region-local: its transient slab.
//  * the regions run in order: the entry gains a timepoint parameter %ready,
//    region k awaits region k-1's timepoint (region 0 awaits %ready) and the
//    entry also returns the last one.
// Names: regions "region0", "region1", ...; inside region k, a parameter for
// outer value %v is %v.in<k>, an execute result for %v is %v.out<k>
// (suffixed further if a name is taken).
//
// Example: with ops_per_region 0, `main(%x, %w constant) { %a = conv(%x, %w)
// %b = relu(%a) return %b }` becomes `main(%x, %ready: timepoint) { %b.out0,
// %region0.done = execute(%x, %ready) {callee = @region0} return %b.out0,
// %region0.done }` and `region @region0(%x.in0, %region0.await: timepoint) {
// %w = constant() %a = conv(%x.in0, %w) %b = relu(%a) return %b,
// %region0.await }`.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "ir/program.h"

namespace memplan {

// Errors: InvalidArgument `path: error: --regions ...` when the program
// already has regions, has more than one computation or control flow (while,
// conditional, call, execute), or ops_per_region < 0.
absl::StatusOr<Program> PartitionIntoRegions(const Program& program, std::int64_t ops_per_region,
                                             const std::string& affinity = "device");

}  // namespace memplan
