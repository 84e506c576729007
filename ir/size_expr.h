// Symbolic byte sizes: expressions over the program's named dims (`dim %n <=
// 4096`, docs/ir.md), as IREE's stream dialect carries dynamic resource sizes
// as SSA values. memplan keeps them as expressions so that the region planner
// (regions/) can prove two dynamic slices may share memory for *every*
// binding of the dims, and report a slab size as an expression.
//
// Normal form. Every SizeExpr is a max of sums:
//     max(S1, S2, ...)            (one term: just S1)
//     S = c + k1*a1 + k2*a2 + ... (c >= 0, k_i >= 1 integers)
// where each atom a_i is either
//   * a monomial: a product of one or more dims (%n, %n*%m, %n*%n), or
//   * align(S', A): a sum S' (no max inside) rounded up to a multiple of A >= 2
//     that does not already divide every coefficient and the constant of S'.
//     Parts of S' that are multiples of A move outside, so the constant and
//     every coefficient of S' stay below A:
//     align(68*%n + 130, 64) = 64*%n + align(4*%n + 2, 64) + 128.
// Sums are kept with atoms in a canonical order and merged coefficients; the
// max keeps its terms sorted and drops a term that another term dominates
// coefficient-wise (so equal expressions have equal normal forms and compare
// equal with ==). align distributes over max (align(max(a,b)) = max(align(a),
// align(b))) and + distributes over max (max(a,b) + c = max(a+c, b+c)), so
// every expression built from constants, dims, +, *constant, max and align
// has this form. Every SizeExpr is >= 0 and non-decreasing in every dim.
//
// Overflow: coefficients are int64; an operation whose exact result does not
// fit sets a sticky overflow flag instead (Overflowed()); such an expression
// evaluates to nullopt and is never provably <= anything.
//
// Worked example (dims n = 0, m = 1):
//   a = SizeExpr::Dim(0).Scaled(4)                  "4*%n"
//   b = SizeExpr::AlignUp(a, 64)                    "align(4*%n, 64)"
//   c = b + SizeExpr::Constant(128)                 "align(4*%n, 64) + 128"
//   d = SizeExpr::Max(c, SizeExpr::Constant(256))   "max(align(4*%n, 64) + 128, 256)"
//   d.Evaluate({{10, 1}}) == 256 (align(40, 64) + 128 = 192 < 256)
//   d.Evaluate({{100, 1}}) == 576
//   With n in [1, 4096]: Constant(64).ProvablyLessEqual(b, box) is true
//   (align(4n, 64) >= 64 for n >= 1); b.ProvablyLessEqual(Constant(64), box)
//   is false.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/units.h"

namespace memplan {

// Index into Program::dims.
using DimId = std::int32_t;

// The values each dim may take, for proofs that hold for every binding.
// Dim d ranges over [lower[d], upper[d]] (upper nullopt: unbounded above).
// memplan's dims are >= 1, so lower is normally 1.
struct DimBox {
  std::vector<std::int64_t> lower;
  std::vector<std::optional<std::int64_t>> upper;
};

// Representation of the normal form (see above); SizeExpr's internals, kept
// in the header only so that SizeExpr is a complete value type.
namespace size_expr_internal {
struct Sum;
// A monomial (dims non-empty, sorted ascending, repeats allowed; alignment 0)
// or align(*aligned, alignment) (dims empty, aligned holds exactly one Sum).
struct Atom {
  std::vector<DimId> dims;
  std::vector<Sum> aligned;
  Bytes alignment = 0;
  // Declared here, defaulted below once Sum is complete: clang with
  // libstdc++ otherwise asks whether Atom is copyable while Sum (which holds
  // Atoms) is still incomplete, and fails to compile.
  Atom();
  Atom(const Atom&);
  Atom(Atom&&) noexcept;
  Atom& operator=(const Atom&);
  Atom& operator=(Atom&&) noexcept;
  ~Atom();
};
// constant + sum of coefficient * atom, atoms in canonical order, each once,
// coefficients >= 1.
struct Sum {
  Bytes constant = 0;
  std::vector<std::pair<Atom, std::int64_t>> atoms;
};
inline Atom::Atom() = default;
inline Atom::Atom(const Atom&) = default;
inline Atom::Atom(Atom&&) noexcept = default;
inline Atom& Atom::operator=(const Atom&) = default;
inline Atom& Atom::operator=(Atom&&) noexcept = default;
inline Atom::~Atom() = default;
}  // namespace size_expr_internal

class SizeExpr {
 public:
  // The constant 0.
  SizeExpr();
  // The constant `bytes` (>= 0; a negative value is treated as 0).
  static SizeExpr Constant(Bytes bytes);
  // The dim `d` (d >= 0).
  static SizeExpr Dim(DimId d);

  // a + b. O(terms(a) * terms(b) * atoms).
  friend SizeExpr operator+(const SizeExpr& a, const SizeExpr& b);
  SizeExpr& operator+=(const SizeExpr& other);
  // k * this, k >= 0 (a negative k counts as 0).
  SizeExpr Scaled(std::int64_t k) const;
  // a * b. Polynomial product when neither has a max or an align atom, or
  // when one side is a constant (then Scaled). InvalidArgument "cannot
  // multiply X by Y: a product with max(...) or align(...) is not
  // supported" otherwise (X and Y printed with dim d named `%d`, e.g. "%0").
  static absl::StatusOr<SizeExpr> Multiply(const SizeExpr& a, const SizeExpr& b);
  // max(a, b) in normal form (terms dominated coefficient-wise dropped).
  static SizeExpr Max(const SizeExpr& a, const SizeExpr& b);
  // max(a, b), additionally dropping every term that ProvablyLessEqual shows
  // is <= another term within `box`; when more than `max_terms` terms remain,
  // they are replaced by one sum that is >= each of them within `box` (the
  // coefficient-wise maximum), so the result is always >= max(a, b) and equal
  // to it when no cap applies. Used for layout offsets.
  static SizeExpr MaxWithin(const SizeExpr& a, const SizeExpr& b, const DimBox& box,
                            std::size_t max_terms = 8);
  // `value` rounded up to a multiple of `alignment` (alignment <= 1: unchanged).
  // Constant parts fold: AlignUp(Constant(100), 16) == Constant(112); a sum
  // whose constant and coefficients are all multiples of `alignment` is unchanged.
  static SizeExpr AlignUp(const SizeExpr& value, Bytes alignment);

  // *this - c for a constant c >= 0, when every term of the max has a
  // constant part >= c (then the result is exact for every binding); else
  // nullopt. Example: (4*%n + 64).MinusConstant(64) == 4*%n.
  std::optional<SizeExpr> MinusConstant(Bytes c) const;

  // True when the expression mentions no dim.
  bool IsConstant() const;
  // The value when IsConstant() (and not overflowed), else nullopt.
  std::optional<Bytes> ConstantValue() const;
  bool Overflowed() const;
  // Dims mentioned, ascending, without repeats.
  std::vector<DimId> Dims() const;

  // Structural equality of normal forms.
  bool operator==(const SizeExpr& other) const;

  // The value when dim d takes dims[d] (dims.size() must exceed every
  // mentioned DimId; nullopt when it does not). nullopt if the value (or an
  // intermediate) overflows int64, or if Overflowed().
  std::optional<Bytes> Evaluate(std::span<const std::int64_t> dims) const;

  // True only if *this <= other for every binding within `box` (sound, not
  // complete). Sums are compared by bounding other - this from below: each
  // atom with a positive coefficient difference contributes its smallest value
  // in the box, each with a negative one its largest (unbounded: not provable);
  // a max on the left needs every term provable, a max on the right needs
  // one term that bounds it. When that fails, align atoms are also tried
  // replaced by their sums (S <= align(S, A) <= S + A - 1). A negative lower
  // bound counts as 0 (SizeExpr assumes dims >= 0); a dim past the box's
  // vectors ranges over [0, unbounded).
  bool ProvablyLessEqual(const SizeExpr& other, const DimBox& box) const;

  // Canonical text, re-readable by the IR parser (docs/ir.md, size
  // expressions): terms of a sum as `c`, `k*%n`, `%n*%m`, `align(S, A)`,
  // joined by " + " with the constant last; a max as `max(S1, S2, ...)`;
  // a product written with `*` and no spaces. Examples: "0", "4096",
  // "4*%n + 64", "align(4*%n, 64) + 128", "max(8*%n, 256)", "%n*%m".
  // `names[d]` is dim d's name without '%' (quoted with %"..." when not a
  // plain name, ir/text_syntax.h); a dim past `names` prints as `%d`.
  std::string ToString(std::span<const std::string> names) const;

 private:
  std::vector<size_expr_internal::Sum> terms_;  // a max of these; never empty
  bool overflow_ = false;

  // The normal form of max(terms) (each term a normalised sum; empty: 0).
  static SizeExpr FromTerms(std::vector<size_expr_internal::Sum> terms, bool overflow);
};

}  // namespace memplan
