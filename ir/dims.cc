#include "ir/dims.h"

#include <string>
#include <utility>

#include "ir/diagnostic.h"
#include "ir/text_syntax.h"

namespace memplan {
namespace {

std::string DimName(const DimDecl& dim) { return SigilName('%', dim.name); }

// "%n, %m" for the unknown-binding message.
std::string DimList(const Program& program) {
  std::string list;
  for (const DimDecl& dim : program.dims) list += (list.empty() ? "" : ", ") + DimName(dim);
  return list;
}

// " at %n = 4096, %m = 2": the dims `size` mentions, at `point`.
std::string PointText(const SizeExpr& size, std::span<const std::int64_t> point,
                      std::span<const std::string> names) {
  std::string text;
  for (DimId d : size.Dims()) {
    text += text.empty() ? " at " : ", ";
    text += SigilName('%', names[d]) + " = " + std::to_string(point[d]);
  }
  return text;
}

// Every binding names a dim of the program (checked first, so a mistyped
// name is reported before any value problem).
absl::Status CheckBindingNames(const Program& program,
                               const std::map<std::string, std::int64_t>& bindings) {
  for (const auto& [name, value] : bindings) {
    bool found = false;
    for (const DimDecl& dim : program.dims) found = found || dim.name == name;
    if (found) continue;
    const std::string flag = "--dim " + name + "=" + std::to_string(value);
    const std::string known = program.dims.empty() ? "it declares no dims"
                                                   : "its dims: " + DimList(program);
    return LocatedError(program.source, {},
                        flag + ": the program has no dim " + SigilName('%', name) + " (" + known + ")");
  }
  return absl::OkStatus();
}

// Sets dim.binding from `bindings` (or clears it) and checks it is usable.
absl::Status BindDim(const Program& program, DimDecl& dim,
                     const std::map<std::string, std::int64_t>& bindings) {
  const auto it = bindings.find(dim.name);
  dim.binding.reset();
  if (it != bindings.end()) {
    const std::string flag = "--dim " + dim.name + "=" + std::to_string(it->second);
    if (it->second < 1) {
      return LocatedError(program.source, dim.loc, flag + " is below 1 (a dim takes values >= 1)");
    }
    if (dim.bound && it->second > *dim.bound) {
      return LocatedError(program.source, dim.loc,
                          flag + " exceeds the bound of " + DimName(dim) + " (" +
                              std::to_string(*dim.bound) + ")");
    }
    dim.binding = it->second;
  }
  if (!dim.bound && !dim.binding) {
    return LocatedError(program.source, dim.loc,
                        "dim " + DimName(dim) + " has no bound and no binding: declare `dim " +
                            DimName(dim) + " <= N` or pass --dim " + dim.name + "=VALUE");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status BindDims(Program& program, const std::map<std::string, std::int64_t>& bindings) {
  if (absl::Status s = CheckBindingNames(program, bindings); !s.ok()) return s;
  for (DimDecl& dim : program.dims) {
    if (absl::Status s = BindDim(program, dim, bindings); !s.ok()) return s;
  }
  const std::vector<std::int64_t> point = EvaluationPoint(program);
  const std::vector<std::string> names = DimNames(program);
  for (Value& value : program.values) {
    // A subview at a dynamic offset moves with the dims too.
    if (value.view_offset_expr) {
      absl::StatusOr<Bytes> offset = SizeAtPoint(*value.view_offset_expr, point, names);
      if (!offset.ok()) {
        return LocatedError(program.source, value.loc,
                            SigilName('%', value.name) + ": " + std::string(offset.status().message()));
      }
      value.view_offset = *offset;
    }
    if (!value.size_expr) continue;
    absl::StatusOr<Bytes> size = SizeAtPoint(*value.size_expr, point, names);
    if (!size.ok()) {
      return LocatedError(program.source, value.loc,
                          SigilName('%', value.name) + ": " + std::string(size.status().message()));
    }
    value.size = *size;
  }
  return absl::OkStatus();
}

std::vector<std::int64_t> EvaluationPoint(const Program& program) {
  std::vector<std::int64_t> point;
  point.reserve(program.dims.size());
  for (const DimDecl& dim : program.dims) point.push_back(dim.binding.value_or(dim.bound.value_or(1)));
  return point;
}

std::vector<std::int64_t> PlanningPoint(const Program& program) {
  std::vector<std::int64_t> point;
  point.reserve(program.dims.size());
  for (const DimDecl& dim : program.dims) point.push_back(dim.bound.value_or(dim.binding.value_or(1)));
  return point;
}

DimBox DimRanges(const Program& program) {
  DimBox box;
  box.lower.assign(program.dims.size(), 1);
  for (const DimDecl& dim : program.dims) box.upper.push_back(dim.bound);
  return box;
}

std::vector<std::string> DimNames(const Program& program) {
  std::vector<std::string> names;
  names.reserve(program.dims.size());
  for (const DimDecl& dim : program.dims) names.push_back(dim.name);
  return names;
}

absl::StatusOr<Bytes> SizeAtPoint(const SizeExpr& size, std::span<const std::int64_t> point,
                                  std::span<const std::string> names) {
  for (DimId d : size.Dims()) {
    if (d < 0 || static_cast<std::size_t>(d) >= point.size() || static_cast<std::size_t>(d) >= names.size()) {
      return absl::InvalidArgumentError("size mentions dim #" + std::to_string(d) + ", but the program declares " +
                                        std::to_string(names.size()) + " dims");
    }
  }
  const std::string text = "size " + size.ToString(names);
  const std::optional<Bytes> bytes = size.Overflowed() ? std::nullopt : size.Evaluate(point);
  if (!bytes) return absl::InvalidArgumentError(text + " overflows int64" + PointText(size, point, names));
  if (*bytes > kMaxTotalBytes) {
    return absl::InvalidArgumentError(text + " is " + std::to_string(*bytes) + " bytes" +
                                      PointText(size, point, names) + ", above the limit of 2^62 (" +
                                      std::to_string(kMaxTotalBytes) + ") bytes");
  }
  return *bytes;
}

}  // namespace memplan
