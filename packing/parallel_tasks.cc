#include "packing/parallel_tasks.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace memplan {

namespace {

constexpr long kMaxPackingThreads = 64;

// MEMPLAN_THREADS when set to a number from 1 to kMaxPackingThreads, else 0.
int ThreadsVariable(const char* value) {
  if (value == nullptr) return 0;
  char* end = nullptr;
  const long parsed = std::strtol(value, &end, 10);
  if (end != value && *end == '\0' && parsed >= 1 && parsed <= kMaxPackingThreads) {
    return static_cast<int>(parsed);
  }
  return 0;
}

}  // namespace

int PackingThreads() {
  if (const int threads = ThreadsVariable(std::getenv("MEMPLAN_THREADS"))) return threads;
  const unsigned hardware = std::thread::hardware_concurrency();
  return static_cast<int>(std::clamp<unsigned>(hardware, 1, 2));
}

std::string PackingThreadsProblem() {
  const char* value = std::getenv("MEMPLAN_THREADS");
  if (value == nullptr || ThreadsVariable(value) != 0) return "";
  return "MEMPLAN_THREADS='" + std::string(value) + "' is not a whole number from 1 to " +
         std::to_string(kMaxPackingThreads) + " (unset, the packers use up to 2 threads)";
}

void RunTasks(std::size_t count, int threads, const std::function<void(std::size_t)>& task) {
  const std::size_t workers = std::min<std::size_t>(count, static_cast<std::size_t>(std::max(1, threads)));
  if (workers <= 1) {
    for (std::size_t i = 0; i < count; ++i) task(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) task(i);
  };
  std::vector<std::thread> helpers;
  helpers.reserve(workers - 1);
  for (std::size_t w = 1; w < workers; ++w) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
}

}  // namespace memplan
