// Binding the program's named dims (Program::dims, `dim %n <= 4096`) and
// evaluating symbolic sizes.
//
// A dim d takes values in [1, bound]. Two points matter:
//  * the planning point: bound if declared, else the --dim binding. Layouts
//    are decided there (regions/ orders dynamic slices by their sizes at it);
//  * the evaluation point: the --dim binding if given, else the bound. Every
//    Value::size, and every figure memplan reports in bytes, is taken there.
// A dim with neither a bound nor a binding cannot be planned.
//
// Example: `dim %n <= 4096` and `%x = splat() : (4*%n)`: without --dim, the
// plan is for n = 4096 and %x has 16384 bytes; with --dim n=512 the same
// symbolic plan is evaluated at n = 512 (%x: 2048 bytes).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/program.h"
#include "ir/size_expr.h"

namespace memplan {

// Sets DimDecl::binding from `bindings` (dim name without '%' -> value) and
// recomputes every Value::size with a size_expr, and every
// Value::view_offset with a view_offset_expr, at the evaluation point.
// Errors: InvalidArgument `path:line:col: error: ...` (path =
// program.source)
//  * at the dim: a binding < 1 or above its bound ("--dim n=0 is below 1 (a
//    dim takes values >= 1)", "--dim n=5000 exceeds the bound of %n
//    (4096)"); a dim with neither bound nor binding ("dim %n has no bound
//    and no binding: declare `dim %n <= N` or pass --dim n=VALUE");
//  * at the value: a size that overflows or exceeds kMaxTotalBytes at the
//    evaluation point ("%x: " + the message of SizeAtPoint);
//  * `path: error: --dim k=3: the program has no dim %k (its dims: %n, %m)`
//    for a binding of an unknown name, "(it declares no dims)" when the
//    program has none. Unknown names are reported before anything else.
// Dims not named in `bindings` lose any earlier binding.
absl::Status BindDims(Program& program, const std::map<std::string, std::int64_t>& bindings);

// The value of every dim (per DimId) at the evaluation point, resp. the
// planning point. Dims without either get 1 (BindDims reports them).
std::vector<std::int64_t> EvaluationPoint(const Program& program);
std::vector<std::int64_t> PlanningPoint(const Program& program);

// The box every dim ranges over: [1, bound] (unbounded above when no bound).
DimBox DimRanges(const Program& program);

// Dim names without '%' (per DimId), for SizeExpr::ToString.
std::vector<std::string> DimNames(const Program& program);

// The value of `size` with dim d at point[d], when it fits the limits: an
// unlocated InvalidArgument (the caller places it) when it overflows int64
// ("size 4*%n overflows int64 at %n = 4096") or exceeds kMaxTotalBytes ("size
// 4*%n is N bytes at %n = 4096, above the limit of 2^62 (...) bytes"); a
// constant size names no dims; a dim id outside `point` or `names` is an
// error too. `names` are the dim names (DimNames).
absl::StatusOr<Bytes> SizeAtPoint(const SizeExpr& size, std::span<const std::int64_t> point,
                                  std::span<const std::string> names);

}  // namespace memplan
