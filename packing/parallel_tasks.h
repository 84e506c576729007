// Runs independent tasks on a few threads, for the kAuto portfolio
// (portfolio.h). Results must not depend on the thread count: tasks write
// only their own slot of a result array, and anything one task reads of
// another's progress may only let it skip work whose result is discarded
// anyway (see portfolio.cc).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace memplan {

// Threads the packers may use: the MEMPLAN_THREADS environment variable when
// it is a number from 1 to 64, else min(2, hardware threads) (the reference
// machine has 2 cores). At least 1.
int PackingThreads();

// What is wrong with MEMPLAN_THREADS, e.g. "MEMPLAN_THREADS='abc' is not a
// whole number from 1 to 64 (unset, the packers use up to 2 threads)";
// empty when it is unset or valid. PackingThreads ignores a bad value; a
// command line refuses it with this message.
std::string PackingThreadsProblem();

// Calls task(0) ... task(count - 1), each exactly once, on up to `threads`
// threads (the calling thread is one of them); tasks are started in index
// order. Returns when all are done. With threads <= 1 they run in order on
// the calling thread.
void RunTasks(std::size_t count, int threads, const std::function<void(std::size_t)>& task);

}  // namespace memplan
