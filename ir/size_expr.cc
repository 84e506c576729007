// Normal form and operations of SizeExpr (see ir/size_expr.h).
//
// Canonical order. Atoms of a sum: monomials before align atoms; monomials by
// degree, then by their dims lexicographically (with n = 0, m = 1: %n < %m <
// %n*%n < %n*%m); align atoms by alignment, then by their sum. Sums (the terms
// of a max, and the sum inside an align) compare atom by atom (atom, then
// coefficient); where one runs out of atoms first, it sorts after the other,
// so a constant term comes last ("max(8*%n, 256)"); equal atoms: by constant.
#include "ir/size_expr.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "absl/status/status.h"
#include "fmt/format.h"
#include "ir/text_syntax.h"

namespace memplan {

using size_expr_internal::Atom;
using size_expr_internal::Sum;

namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

// Checked arithmetic: on overflow, sets `overflow` and saturates at int64 max.
// SizeExpr values are >= 0, so a saturated value is still a lower bound.
std::int64_t Add(std::int64_t a, std::int64_t b, bool& overflow) {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r)) {
    overflow = true;
    return kInt64Max;
  }
  return r;
}

std::int64_t Mul(std::int64_t a, std::int64_t b, bool& overflow) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) {
    overflow = true;
    return kInt64Max;
  }
  return r;
}

template <typename T>
int Cmp(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int CompareSum(const Sum& a, const Sum& b);

int CompareAtom(const Atom& a, const Atom& b) {
  const bool a_align = a.alignment != 0;
  const bool b_align = b.alignment != 0;
  if (a_align != b_align) return a_align ? 1 : -1;
  if (!a_align) {
    if (int c = Cmp(a.dims.size(), b.dims.size())) return c;
    return Cmp(a.dims, b.dims);
  }
  if (int c = Cmp(a.alignment, b.alignment)) return c;
  return CompareSum(a.aligned[0], b.aligned[0]);
}

int CompareSum(const Sum& a, const Sum& b) {
  const std::size_t n = std::min(a.atoms.size(), b.atoms.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (int c = CompareAtom(a.atoms[i].first, b.atoms[i].first)) return c;
    if (int c = Cmp(a.atoms[i].second, b.atoms[i].second)) return c;
  }
  if (a.atoms.size() != b.atoms.size()) return a.atoms.size() > n ? -1 : 1;
  return Cmp(a.constant, b.constant);
}

bool IsAlign(const Atom& atom) { return atom.alignment != 0; }

bool HasAlign(const Sum& sum) {
  return std::any_of(sum.atoms.begin(), sum.atoms.end(),
                     [](const auto& term) { return IsAlign(term.first); });
}

// Sorts the atoms into canonical order, merges repeats, drops zero coefficients.
void NormalizeSum(Sum& sum, bool& overflow) {
  auto& atoms = sum.atoms;
  std::sort(atoms.begin(), atoms.end(), [](const auto& x, const auto& y) {
    return CompareAtom(x.first, y.first) < 0;
  });
  std::size_t out = 0;
  for (std::size_t i = 0; i < atoms.size(); ++i) {
    if (out > 0 && CompareAtom(atoms[out - 1].first, atoms[i].first) == 0) {
      atoms[out - 1].second = Add(atoms[out - 1].second, atoms[i].second, overflow);
    } else {
      if (out != i) atoms[out] = std::move(atoms[i]);
      ++out;
    }
  }
  atoms.resize(out);
  std::erase_if(atoms, [](const auto& term) { return term.second == 0; });
}

Sum AddSums(const Sum& a, const Sum& b, bool& overflow) {
  Sum sum = a;
  sum.constant = Add(a.constant, b.constant, overflow);
  sum.atoms.insert(sum.atoms.end(), b.atoms.begin(), b.atoms.end());
  NormalizeSum(sum, overflow);
  return sum;
}

// True if every coefficient and the constant of `big` are >= those of `small`
// (atoms are >= 0, so then big >= small everywhere).
bool Dominates(const Sum& big, const Sum& small) {
  if (big.constant < small.constant) return false;
  std::size_t i = 0;
  for (const auto& [atom, k] : small.atoms) {
    while (i < big.atoms.size() && CompareAtom(big.atoms[i].first, atom) < 0) ++i;
    if (i == big.atoms.size() || CompareAtom(big.atoms[i].first, atom) != 0 ||
        big.atoms[i].second < k) {
      return false;
    }
  }
  return true;
}

// Every value of `atom` is a multiple of this.
Bytes Granularity(const Atom& atom) { return IsAlign(atom) ? atom.alignment : 1; }

// align(sum, alignment) as a sum (alignment >= 2): the parts that are
// multiples of `alignment` move outside, the rest stays in one align atom
// (or folds into the constant when no atom is left inside).
Sum AlignSum(const Sum& sum, Bytes alignment, bool& overflow) {
  Sum outside;
  Sum inside;
  outside.constant = sum.constant / alignment * alignment;
  inside.constant = sum.constant % alignment;
  for (const auto& [atom, k] : sum.atoms) {
    // k * atom is a multiple of `alignment` exactly when `step` divides k.
    const std::int64_t step = alignment / std::gcd(Granularity(atom), alignment);
    if (k / step > 0) outside.atoms.emplace_back(atom, k / step * step);
    if (k % step > 0) inside.atoms.emplace_back(atom, k % step);
  }
  const bool nested = inside.constant == 0 && inside.atoms.size() == 1 &&
                      inside.atoms[0].second == 1 && IsAlign(inside.atoms[0].first) &&
                      alignment % inside.atoms[0].first.alignment == 0;
  if (inside.atoms.empty()) {
    if (inside.constant > 0) outside.constant = Add(outside.constant, alignment, overflow);
  } else if (nested) {
    // align(align(S, B), A) = align(S, A) when B divides A.
    outside = AddSums(outside, AlignSum(inside.atoms[0].first.aligned[0], alignment, overflow),
                      overflow);
  } else {
    Atom atom;
    atom.aligned.push_back(std::move(inside));
    atom.alignment = alignment;
    outside.atoms.emplace_back(std::move(atom), 1);
  }
  NormalizeSum(outside, overflow);
  return outside;
}

// The coefficient-wise maximum of `terms` (>= each of them everywhere).
Sum CoefficientWiseMax(const std::vector<Sum>& terms) {
  Sum result;
  for (const Sum& term : terms) {
    result.constant = std::max(result.constant, term.constant);
    result.atoms.insert(result.atoms.end(), term.atoms.begin(), term.atoms.end());
  }
  std::stable_sort(result.atoms.begin(), result.atoms.end(), [](const auto& x, const auto& y) {
    return CompareAtom(x.first, y.first) < 0;
  });
  std::vector<std::pair<Atom, std::int64_t>> merged;
  for (auto& term : result.atoms) {
    if (!merged.empty() && CompareAtom(merged.back().first, term.first) == 0) {
      merged.back().second = std::max(merged.back().second, term.second);
    } else {
      merged.push_back(std::move(term));
    }
  }
  result.atoms = std::move(merged);
  return result;
}

// Smallest multiple of `alignment` (>= 1) that is >= value.
std::int64_t CeilToMultiple(std::int64_t value, std::int64_t alignment, bool& overflow) {
  const std::int64_t rem = value % alignment;
  if (rem == 0) return value;
  return rem > 0 ? Add(value, alignment - rem, overflow) : value - rem;
}

// Values of atoms and sums with dim d = dim_value(d) (std::optional; nullopt
// makes the result nullopt). On int64 overflow: nullopt, or int64 max when
// `saturate` (a lower bound of the true value when every dim is >= 0).
template <typename DimValue>
std::optional<Bytes> EvalSum(const Sum& sum, const DimValue& dim_value, bool saturate);

template <typename DimValue>
std::optional<Bytes> EvalAtom(const Atom& atom, const DimValue& dim_value, bool saturate) {
  bool overflow = false;
  std::int64_t value = 1;
  if (IsAlign(atom)) {
    std::optional<Bytes> inner = EvalSum(atom.aligned[0], dim_value, saturate);
    if (!inner) return std::nullopt;
    value = CeilToMultiple(*inner, atom.alignment, overflow);
  } else {
    std::vector<std::int64_t> factors;
    for (DimId d : atom.dims) {
      std::optional<std::int64_t> v = dim_value(d);
      if (!v) return std::nullopt;
      if (*v == 0) return 0;  // exact even when the other factors overflow
      factors.push_back(*v);
    }
    for (std::int64_t f : factors) value = Mul(value, f, overflow);
  }
  if (overflow && !saturate) return std::nullopt;
  return value;
}

template <typename DimValue>
std::optional<Bytes> EvalSum(const Sum& sum, const DimValue& dim_value, bool saturate) {
  bool overflow = false;
  std::int64_t total = sum.constant;
  for (const auto& [atom, k] : sum.atoms) {
    std::optional<Bytes> v = EvalAtom(atom, dim_value, saturate);
    if (!v) return std::nullopt;
    total = Add(total, Mul(k, *v, overflow), overflow);
  }
  if (overflow && !saturate) return std::nullopt;
  return total;
}

// Lower and upper corners of a box (dims clamped to >= 0).
struct Corners {
  const DimBox& box;
  std::optional<std::int64_t> Lower(DimId d) const {
    const auto i = static_cast<std::size_t>(d);
    return i < box.lower.size() ? std::max<std::int64_t>(box.lower[i], 0) : 0;
  }
  std::optional<std::int64_t> Upper(DimId d) const {
    const auto i = static_cast<std::size_t>(d);
    if (i >= box.upper.size() || !box.upper[i]) return std::nullopt;
    return std::max<std::int64_t>(*box.upper[i], 0);
  }
};

// True if the lower bound of u - t over the box is >= 0 (see the header).
bool SumLessEqual(const Sum& t, const Sum& u, const Corners& box) {
  auto lower = [&](DimId d) { return box.Lower(d); };
  auto upper = [&](DimId d) { return box.Upper(d); };
  // u - t >= plus - minus; plus saturates (still a lower bound), minus may not.
  bool saturated = false;
  bool overflow = false;
  std::int64_t plus = 0;
  std::int64_t minus = 0;
  if (u.constant >= t.constant) {
    plus = u.constant - t.constant;
  } else {
    minus = t.constant - u.constant;
  }
  auto gain = [&](const Atom& atom, std::int64_t k) {
    const Bytes smallest = *EvalAtom(atom, lower, /*saturate=*/true);
    plus = Add(plus, Mul(k, smallest, saturated), saturated);
  };
  auto lose = [&](const Atom& atom, std::int64_t k) {
    std::optional<Bytes> largest = EvalAtom(atom, upper, /*saturate=*/false);
    if (!largest) return false;
    minus = Add(minus, Mul(k, *largest, overflow), overflow);
    return !overflow;
  };
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < t.atoms.size() || j < u.atoms.size()) {
    int c = i == t.atoms.size()   ? 1
            : j == u.atoms.size() ? -1
                                  : CompareAtom(t.atoms[i].first, u.atoms[j].first);
    if (c < 0) {
      if (!lose(t.atoms[i].first, t.atoms[i].second)) return false;
      ++i;
    } else if (c > 0) {
      gain(u.atoms[j].first, u.atoms[j].second);
      ++j;
    } else {
      const std::int64_t diff = u.atoms[j].second - t.atoms[i].second;
      if (diff > 0) gain(u.atoms[j].first, diff);
      if (diff < 0 && !lose(t.atoms[i].first, -diff)) return false;
      ++i;
      ++j;
    }
  }
  return plus >= minus;
}

// `sum` with every k*align(S, A) replaced by k*S (a lower bound), or with
// `upper` by k*S + k*(A-1) (an upper bound); nullopt on overflow.
std::optional<Sum> RelaxAligns(const Sum& sum, bool upper) {
  bool overflow = false;
  Sum result;
  result.constant = sum.constant;
  for (const auto& [atom, k] : sum.atoms) {
    if (!IsAlign(atom)) {
      result.atoms.emplace_back(atom, k);
      continue;
    }
    const Sum& inner = atom.aligned[0];
    const std::int64_t slack = upper ? Mul(k, atom.alignment - 1, overflow) : 0;
    result.constant = Add(result.constant, Add(Mul(k, inner.constant, overflow), slack, overflow),
                          overflow);
    for (const auto& [inner_atom, inner_k] : inner.atoms) {
      result.atoms.emplace_back(inner_atom, Mul(k, inner_k, overflow));
    }
  }
  NormalizeSum(result, overflow);
  if (overflow) return std::nullopt;
  return result;
}

// t and u without what they share: the smaller constant and, per atom, the
// smaller coefficient (u - t is unchanged). Relaxing an align that both sides
// hold would lose its exactness on one side only, so TermLessEqual relaxes
// only what is left: align(%m, 64) + %n <= align(%n, 64) + align(%m, 64)
// becomes %n <= align(%n, 64).
std::pair<Sum, Sum> WithoutCommonParts(const Sum& t, const Sum& u) {
  std::pair<Sum, Sum> out;
  const Bytes common = std::min(t.constant, u.constant);
  out.first.constant = t.constant - common;
  out.second.constant = u.constant - common;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < t.atoms.size() || j < u.atoms.size()) {
    const int c = i == t.atoms.size()   ? 1
                  : j == u.atoms.size() ? -1
                                        : CompareAtom(t.atoms[i].first, u.atoms[j].first);
    if (c < 0) {
      out.first.atoms.push_back(t.atoms[i++]);
    } else if (c > 0) {
      out.second.atoms.push_back(u.atoms[j++]);
    } else {
      const std::int64_t k = std::min(t.atoms[i].second, u.atoms[j].second);
      if (t.atoms[i].second > k) out.first.atoms.emplace_back(t.atoms[i].first, t.atoms[i].second - k);
      if (u.atoms[j].second > k) out.second.atoms.emplace_back(u.atoms[j].first, u.atoms[j].second - k);
      ++i;
      ++j;
    }
  }
  return out;
}

bool TermLessEqual(const Sum& whole_t, const Sum& whole_u, const Corners& box) {
  if (SumLessEqual(whole_t, whole_u, box)) return true;
  const auto [t, u] = WithoutCommonParts(whole_t, whole_u);
  std::optional<Sum> t_up = HasAlign(t) ? RelaxAligns(t, /*upper=*/true) : std::nullopt;
  std::optional<Sum> u_down = HasAlign(u) ? RelaxAligns(u, /*upper=*/false) : std::nullopt;
  return (t_up && SumLessEqual(*t_up, u, box)) || (u_down && SumLessEqual(t, *u_down, box)) ||
         (t_up && u_down && SumLessEqual(*t_up, *u_down, box));
}

void CollectDims(const Sum& sum, std::vector<DimId>& dims) {
  for (const auto& [atom, k] : sum.atoms) {
    dims.insert(dims.end(), atom.dims.begin(), atom.dims.end());
    for (const Sum& inner : atom.aligned) CollectDims(inner, dims);
  }
}

std::string SumText(const Sum& sum, std::span<const std::string> names);

std::string AtomText(const Atom& atom, std::span<const std::string> names) {
  if (IsAlign(atom)) {
    return fmt::format("align({}, {})", SumText(atom.aligned[0], names), atom.alignment);
  }
  std::string text;
  for (DimId d : atom.dims) {
    if (!text.empty()) text += '*';
    const auto i = static_cast<std::size_t>(d);
    text += SigilName('%', i < names.size() ? names[i] : std::to_string(d));
  }
  return text;
}

std::string SumText(const Sum& sum, std::span<const std::string> names) {
  std::string text;
  for (const auto& [atom, k] : sum.atoms) {
    if (!text.empty()) text += " + ";
    if (k != 1) text += fmt::format("{}*", k);
    text += AtomText(atom, names);
  }
  if (sum.constant != 0 || text.empty()) {
    if (!text.empty()) text += " + ";
    text += std::to_string(sum.constant);
  }
  return text;
}

}  // namespace

SizeExpr::SizeExpr() : terms_(1) {}

SizeExpr SizeExpr::FromTerms(std::vector<Sum> terms, bool overflow) {
  std::sort(terms.begin(), terms.end(),
            [](const Sum& a, const Sum& b) { return CompareSum(a, b) < 0; });
  terms.erase(std::unique(terms.begin(), terms.end(),
                          [](const Sum& a, const Sum& b) { return CompareSum(a, b) == 0; }),
              terms.end());
  // Terms are now distinct, so domination is a strict order and every dropped
  // term is dominated by a kept one.
  std::vector<bool> dominated(terms.size(), false);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    for (std::size_t j = 0; j < terms.size() && !dominated[i]; ++j) {
      dominated[i] = i != j && Dominates(terms[j], terms[i]);
    }
  }
  SizeExpr result;
  result.terms_.clear();
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (!dominated[i]) result.terms_.push_back(std::move(terms[i]));
  }
  if (result.terms_.empty()) result.terms_.emplace_back();
  result.overflow_ = overflow;
  return result;
}

SizeExpr SizeExpr::Constant(Bytes bytes) {
  SizeExpr result;
  result.terms_[0].constant = std::max<Bytes>(bytes, 0);
  return result;
}

SizeExpr SizeExpr::Dim(DimId d) {
  SizeExpr result;
  Atom atom;
  atom.dims.push_back(d);
  result.terms_[0].atoms.emplace_back(std::move(atom), 1);
  return result;
}

SizeExpr operator+(const SizeExpr& a, const SizeExpr& b) {
  bool overflow = a.overflow_ || b.overflow_;
  std::vector<Sum> terms;
  terms.reserve(a.terms_.size() * b.terms_.size());
  for (const Sum& x : a.terms_) {
    for (const Sum& y : b.terms_) terms.push_back(AddSums(x, y, overflow));
  }
  return SizeExpr::FromTerms(std::move(terms), overflow);
}

SizeExpr& SizeExpr::operator+=(const SizeExpr& other) { return *this = *this + other; }

std::optional<SizeExpr> SizeExpr::MinusConstant(Bytes c) const {
  if (c < 0 || overflow_) return std::nullopt;
  std::vector<Sum> terms = terms_;
  for (Sum& sum : terms) {
    if (sum.constant < c) return std::nullopt;
    sum.constant -= c;  // every term drops equally: the max keeps its shape
  }
  return FromTerms(std::move(terms), false);
}

SizeExpr SizeExpr::Scaled(std::int64_t k) const {
  k = std::max<std::int64_t>(k, 0);
  bool overflow = overflow_;
  std::vector<Sum> terms = terms_;
  for (Sum& sum : terms) {
    sum.constant = Mul(sum.constant, k, overflow);
    for (auto& term : sum.atoms) term.second = Mul(term.second, k, overflow);
    NormalizeSum(sum, overflow);
  }
  return FromTerms(std::move(terms), overflow);
}

absl::StatusOr<SizeExpr> SizeExpr::Multiply(const SizeExpr& a, const SizeExpr& b) {
  if (a.IsConstant() || b.IsConstant()) {
    const SizeExpr& factor = a.IsConstant() ? a : b;
    SizeExpr product = (a.IsConstant() ? b : a).Scaled(factor.terms_[0].constant);
    product.overflow_ = product.overflow_ || factor.overflow_;
    return product;
  }
  if (a.terms_.size() > 1 || b.terms_.size() > 1 || HasAlign(a.terms_[0]) ||
      HasAlign(b.terms_[0])) {
    return absl::InvalidArgumentError(fmt::format(
        "cannot multiply {} by {}: a product with max(...) or align(...) is not supported",
        a.ToString({}), b.ToString({})));
  }
  bool overflow = a.overflow_ || b.overflow_;
  const Sum& x = a.terms_[0];
  const Sum& y = b.terms_[0];
  Sum product;
  product.constant = Mul(x.constant, y.constant, overflow);
  for (const auto& [atom, k] : x.atoms) {
    product.atoms.emplace_back(atom, Mul(k, y.constant, overflow));
  }
  for (const auto& [atom, k] : y.atoms) {
    product.atoms.emplace_back(atom, Mul(k, x.constant, overflow));
  }
  for (const auto& [x_atom, x_k] : x.atoms) {
    for (const auto& [y_atom, y_k] : y.atoms) {
      Atom monomial;
      std::merge(x_atom.dims.begin(), x_atom.dims.end(), y_atom.dims.begin(), y_atom.dims.end(),
                 std::back_inserter(monomial.dims));
      product.atoms.emplace_back(std::move(monomial), Mul(x_k, y_k, overflow));
    }
  }
  NormalizeSum(product, overflow);
  return FromTerms({std::move(product)}, overflow);
}

SizeExpr SizeExpr::Max(const SizeExpr& a, const SizeExpr& b) {
  std::vector<Sum> terms = a.terms_;
  terms.insert(terms.end(), b.terms_.begin(), b.terms_.end());
  return FromTerms(std::move(terms), a.overflow_ || b.overflow_);
}

SizeExpr SizeExpr::MaxWithin(const SizeExpr& a, const SizeExpr& b, const DimBox& box,
                             std::size_t max_terms) {
  SizeExpr max = Max(a, b);
  std::vector<Sum>& terms = max.terms_;
  if (!max.overflow_) {
    // A term is dropped only for one still kept at that point; following
    // those links always ends at a kept term, which then bounds it.
    const Corners corners{box};
    std::vector<bool> dropped(terms.size(), false);
    for (std::size_t i = 0; i < terms.size(); ++i) {
      for (std::size_t j = 0; j < terms.size() && !dropped[i]; ++j) {
        dropped[i] = i != j && !dropped[j] && TermLessEqual(terms[i], terms[j], corners);
      }
    }
    std::vector<Sum> kept;
    for (std::size_t i = 0; i < terms.size(); ++i) {
      if (!dropped[i]) kept.push_back(std::move(terms[i]));
    }
    terms = std::move(kept);
  }
  if (terms.size() > max_terms) terms = {CoefficientWiseMax(terms)};
  return FromTerms(std::move(terms), max.overflow_);
}

SizeExpr SizeExpr::AlignUp(const SizeExpr& value, Bytes alignment) {
  if (alignment <= 1) return value;
  bool overflow = value.overflow_;
  std::vector<Sum> terms;
  for (const Sum& sum : value.terms_) terms.push_back(AlignSum(sum, alignment, overflow));
  return FromTerms(std::move(terms), overflow);
}

bool SizeExpr::IsConstant() const { return terms_.size() == 1 && terms_[0].atoms.empty(); }

std::optional<Bytes> SizeExpr::ConstantValue() const {
  if (!IsConstant() || overflow_) return std::nullopt;
  return terms_[0].constant;
}

bool SizeExpr::Overflowed() const { return overflow_; }

std::vector<DimId> SizeExpr::Dims() const {
  std::vector<DimId> dims;
  for (const Sum& sum : terms_) CollectDims(sum, dims);
  std::sort(dims.begin(), dims.end());
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  return dims;
}

bool SizeExpr::operator==(const SizeExpr& other) const {
  if (overflow_ != other.overflow_ || terms_.size() != other.terms_.size()) return false;
  for (std::size_t i = 0; i < terms_.size(); ++i) {
    if (CompareSum(terms_[i], other.terms_[i]) != 0) return false;
  }
  return true;
}

std::optional<Bytes> SizeExpr::Evaluate(std::span<const std::int64_t> dims) const {
  if (overflow_) return std::nullopt;
  auto dim_value = [&](DimId d) -> std::optional<std::int64_t> {
    const auto i = static_cast<std::size_t>(d);
    if (d < 0 || i >= dims.size()) return std::nullopt;
    return dims[i];
  };
  std::optional<Bytes> result;
  for (const Sum& sum : terms_) {
    std::optional<Bytes> value = EvalSum(sum, dim_value, /*saturate=*/false);
    if (!value) return std::nullopt;
    result = result ? std::max(*result, *value) : *value;
  }
  return result;
}

bool SizeExpr::ProvablyLessEqual(const SizeExpr& other, const DimBox& box) const {
  if (overflow_ || other.overflow_) return false;
  const Corners corners{box};
  return std::all_of(terms_.begin(), terms_.end(), [&](const Sum& t) {
    return std::any_of(other.terms_.begin(), other.terms_.end(),
                       [&](const Sum& u) { return TermLessEqual(t, u, corners); });
  });
}

std::string SizeExpr::ToString(std::span<const std::string> names) const {
  if (terms_.size() == 1) return SumText(terms_[0], names);
  std::string text = "max(";
  for (std::size_t i = 0; i < terms_.size(); ++i) {
    if (i > 0) text += ", ";
    text += SumText(terms_[i], names);
  }
  return text + ")";
}

}  // namespace memplan
