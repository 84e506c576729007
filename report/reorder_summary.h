// The summary line of `--reorder` (docs/reorder.md), e.g.
//   order: reordered by inductor-lpmf (transient max-live 6.00 MiB → 4.10 MiB,
//   -31.7 %; the order-independent bound 3.90 MiB)
// (one line), or, when no strategy beat the input order,
//   order: kept (no order found below the input's transient max-live
//   6.00 MiB; the order-independent bound 3.90 MiB)
#pragma once

#include <string>
#include <string_view>

#include "ir/units.h"

namespace memplan {

// The line above, ending in a newline; `strategy` is the winning row's name
// ("input" when the order was kept). Sizes in FormatBytes's form.
std::string FormatReorderLine(std::string_view strategy, Bytes input_peak, Bytes peak, Bytes lower_bound);

}  // namespace memplan
