// Lifetime classes of values and of the buffers (alias sets) they form, as in
// IREE's resource lifetimes: who owns the storage and how long it lives.
//
// Example: in
//   entry func @main(%x) { %c = constant() ; %y = add(%x, %c) ; return %y }
// %x and %y are external (entry param / entry result), %c is constant; a value
// with an explicit `lifetime(...)` keeps it.
#pragma once

#include <vector>

#include "ir/program.h"
#include "ir/units.h"

namespace memplan {

// Per ValueId: the explicit Value::lifetime if set, else the default —
// external for entry params and entry results, variable for results of an
// initializer (they persist across runs, like IREE globals), constant for
// results of `constant`-kind ops, transient otherwise. O(values + ops).
std::vector<Lifetime> ValueLifetimes(const Program& program);

// The lifetime a buffer takes when members have lifetimes `a` and `b`: the
// longer-lived one, ranked external > variable > constant > staging > transient.
Lifetime DominantLifetime(Lifetime a, Lifetime b);

}  // namespace memplan
