#include "bench/synthetic.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "ir/program_builder.h"

namespace memplan {
namespace {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next() {
    std::uint64_t x = (state_ += 0x9e3779b97f4a7c15ULL);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }
  // Uniform in [0, 1) with 53 random bits.
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // Log-uniform integer in [lo, hi].
  std::int64_t LogUniform(std::int64_t lo, std::int64_t hi) {
    const double v = std::exp(std::log(double(lo)) + Unit() * (std::log(double(hi)) - std::log(double(lo))));
    return std::clamp<std::int64_t>(static_cast<std::int64_t>(v), lo, hi);
  }

 private:
  std::uint64_t state_;
};

}  // namespace

std::vector<PackItem> AllLiveItems(std::int64_t n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<PackItem> items;
  for (std::int64_t i = 0; i < n; ++i) items.push_back({rng.LogUniform(64, 1 << 20), 1, 0, 1});
  return items;
}

std::vector<PackItem> RandomRowItems(std::int64_t n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<PackItem> items;
  for (std::int64_t i = 0; i < n; ++i) {
    const TimeStep start = static_cast<TimeStep>(rng.Next() % 1'000'000);
    const TimeStep length = 1 + static_cast<TimeStep>(rng.Next() % 10'000);
    items.push_back({rng.LogUniform(64, 1 << 20), 1, start, start + length - 1});
  }
  return items;
}

std::vector<PackItem> SyntheticItems(const SyntheticOptions& options) {
  const std::int64_t n = std::max<std::int64_t>(options.n, 0);
  const TimeStep last = std::max<std::int64_t>(n - 1, 0);
  SplitMix64 rng(options.seed);
  std::vector<PackItem> items;
  items.reserve(n);
  constexpr std::int64_t kWholeProgram = 4;  // program inputs and outputs
  for (std::int64_t i = 0; i < n; ++i) {
    PackItem item;
    item.alignment = options.alignment;
    item.size = (rng.LogUniform(256, 16 << 20) + 63) / 64 * 64;
    if (i < kWholeProgram) {
      item.start = 0;
      item.end = last;
    } else {
      item.start = i;
      const double kind = rng.Unit();
      TimeStep length;
      if (kind < 0.89) {
        length = 1 + static_cast<TimeStep>(rng.Next() % 4);  // read by the next few ops
      } else if (kind < 0.99) {
        length = rng.LogUniform(8, 256);  // skip connection
      } else {
        length = rng.LogUniform(256, 4096);  // kept for a later layer
      }
      item.end = std::min(last, item.start + length);
    }
    items.push_back(item);
  }
  return items;
}

Program SyntheticProgram(const SyntheticOptions& options) {
  SplitMix64 rng(options.seed);
  ProgramBuilder b("synthetic");
  const ComputationId main = b.AddComputation("main");
  b.SetEntry(main);
  auto size = [&rng] { return (rng.LogUniform(256, 16 << 20) + 63) / 64 * 64; };
  std::vector<ValueId> values = {b.AddParam(main, "input", size()),
                                 b.AddParam(main, "weight", size())};
  b.value(values[1]).lifetime = Lifetime::kConstant;
  for (std::int64_t i = 0; i < options.n; ++i) {
    const ValueId prev = values.back();
    std::vector<ValueId> operands = {prev};
    const double kind = rng.Unit();
    const auto count = static_cast<std::int64_t>(values.size());
    if (kind < 0.3 && count > 2) {
      operands.push_back(values[count - 2 - static_cast<std::int64_t>(rng.Next() % std::min<std::int64_t>(3, count - 2))]);
    } else if (kind < 0.33 && count > 64) {
      operands.push_back(values[count - 1 - rng.LogUniform(8, std::min<std::int64_t>(count - 1, 4096))]);
    }
    const bool in_place = i % 8 == 7, view = i % 16 == 15;
    const OpId op = b.AddOp(main, view ? "reshape" : in_place ? "relu" : "add", operands);
    const Bytes result_size = view || in_place ? b.value(prev).size : size();
    const ValueId v = b.AddResult(op, "v" + std::to_string(i), result_size);
    if (view || in_place) {
      b.value(v).alias = view ? AliasKind::kView : AliasKind::kTied;
      b.value(v).alias_of = prev;
    }
    b.op(op).cost.flops = static_cast<double>(result_size);
    values.push_back(v);
  }
  b.SetReturn(main, {values.back()});
  return std::move(b).Finish();
}

}  // namespace memplan
