// `memplan compare --reorder`: beside the packers' table, one row per
// reordering strategy (schedule/reorder.h) with the transient max-live of
// the order it finds — the bound every packing of that order is held to —
// and the order-independent lower bound. The packers' rows above it run on
// memplan's order (the lowest row).
//
// Text example (examples/reorder_randwire.mpir; the planner column cut):
//   orders (--reorder): each strategy's transient max-live; the packers above ran on memplan's
//
//   order           max-live bytes      size  vs LB  vs input  planner
//   lower bound            1572864  1.50 MiB  1.000         -  order-independent: ...
//   memplan                1835008  1.75 MiB  1.167    -24.3%  memplan --reorder: ...
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/units.h"

namespace memplan {

// One reordering strategy's order.
struct CompareOrderRow {
  std::string name;      // "memplan", "input", "xla-list", ..., "exact"
  std::string planner;   // whose strategy and its rule, one line
  Bytes max_live = 0;    // transient max-live of the program in its order
  // Wall-clock seconds finding the order (`--timings` only: they vary).
  std::optional<double> seconds;
};

struct CompareOrders {
  Bytes input_max_live = 0;  // of the input's order
  Bytes lower_bound = 0;     // order-independent (schedule/lower_bound.h)
  std::string kept;          // the row memplan kept ("input" when none was lower)
  std::vector<CompareOrderRow> rows;  // memplan first, then input, the peers, ...
  std::string note;          // a last line (e.g. why exact has no row); "" for none
};

// The section above (a blank line, its title, a blank line, one line per
// row, the lower bound first; then `note`): name, max-live bytes, human
// size, ratio to the lower bound (3 decimals), change against the input
// order (1 decimal, "-" for the bound), seconds when any row has them, the
// planner. Deterministic without seconds.
std::string FormatCompareOrders(const CompareOrders& orders);

}  // namespace memplan
