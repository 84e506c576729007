// The summary line of `--reorder` (docs/reorder.md), e.g.
//   order: reordered by inductor-lpmf (transient max-live 6.00 MiB → 4.10 MiB,
//   -31.7 %; the order-independent bound 3.90 MiB)
// (one line), or, when no strategy beat the input order,
//   order: kept (no order found below the input's transient max-live
//   6.00 MiB; the order-independent bound 3.90 MiB)
// With fast memory the input order is planned too and the faster kept; the
// line then ends with both estimated times, or says the input order was kept:
//   order: kept the input order: reordered by inductor-lpmf (transient
//   max-live 6.00 MiB → 4.10 MiB, -31.7 %; the order-independent bound
//   3.90 MiB), but with fast memory the input
//   order runs faster (estimated 0.615263 s vs 0.615377 s reordered)
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ir/units.h"

namespace memplan {

// With fast memory: the estimated run times (seconds) of the reordered and
// the input order, and which one the plan kept (the reordered one on a tie).
struct ReorderFastMemoryChoice {
  bool kept_input_order = false;
  double reordered_s = 0;
  double input_order_s = 0;
};

// The line above, ending in a newline; `strategy` is the winning row's name
// ("input" when the order was kept). Sizes in FormatBytes's form.
std::string FormatReorderLine(std::string_view strategy, Bytes input_peak, Bytes peak, Bytes lower_bound,
                              const std::optional<ReorderFastMemoryChoice>& fast_memory = std::nullopt);

}  // namespace memplan
