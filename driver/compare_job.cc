#include "driver/compare_job.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <utility>
#include <vector>

#include "driver/compare_times.h"
#include "driver/fixed_offsets.h"
#include "driver/pools.h"
#include "driver/tflite_summary.h"
#include "driver/verification_failure.h"
#include "fmt/format.h"
#include "io/file_io.h"
#include "ir/diagnostic.h"
#include "ir/plural.h"
#include "packing/packer.h"
#include "packing/peers/peer_strategies.h"
#include "packing/peers/tflite_micro_greedy.h"
#include "regions/allocate_regions.h"
#include "verify/verifier.h"

namespace memplan {
namespace {

// The buffers `memplan plan` packs into the transient pool of default
// memory, as their own buffer set (control regions kept for the verifier).
BufferSet TransientDefaultBuffers(const BufferSet& all) {
  BufferSet set;
  set.input = all.input;
  set.time_steps = all.time_steps;
  set.control_regions = all.control_regions;
  for (const Buffer& b : all.buffers) {
    if (b.lifetime == Lifetime::kTransient && b.space.value_or(kDefaultSpace) == kDefaultSpace) {
      set.buffers.push_back(b);
    }
  }
  return set;
}

// One item per buffer, with its dead gaps (memplan's plan and the bound use
// them; the peers read hulls).
std::vector<PackItem> ItemsOf(const BufferSet& set) {
  std::vector<PackItem> items;
  items.reserve(set.buffers.size());
  for (const Buffer& b : set.buffers) {
    PackItem& item =
        items.emplace_back(PackItem{b.size, std::max<Bytes>(1, b.alignment), b.start, b.end});
    if (b.extras) item.extras.emplace(b.gaps(), b.fixed_offset());
  }
  return items;
}

// The placement `offsets` of `set` as a plan of one transient pool.
Plan PlanOf(const BufferSet& set, const std::vector<Bytes>& offsets, Bytes peak,
            Bytes lower_bound, Bytes alignment) {
  Plan plan;
  plan.input = set.input;
  plan.time_steps = set.time_steps;
  plan.alignment = alignment;
  plan.peak = peak;
  plan.lower_bound = lower_bound;
  PoolInfo pool;
  pool.name = std::string(LifetimeName(Lifetime::kTransient));
  pool.size = peak;
  pool.lower_bound = lower_bound;
  pool.buffers = static_cast<std::int64_t>(set.buffers.size());
  for (std::size_t i = 0; i < set.buffers.size(); ++i) {
    const Buffer& b = set.buffers[i];
    pool.total_bytes += b.size;
    plan.placements.push_back(
        BufferPlacement{pool.name, {Allocation{kDefaultSpace, offsets[i], b.start, b.end}}});
  }
  plan.pools.push_back(pool);
  SpaceInfo space;
  space.name = SpaceName(kDefaultSpace);
  space.peak = peak;
  space.alignment = alignment;
  plan.spaces.push_back(space);
  return plan;
}

absl::Status Verify(const BufferSet& set, const PackResult& packed, Bytes lower_bound,
                    Bytes alignment, const Program* program) {
  VerifyOptions options;
  options.alignment = alignment;
  options.program = program;
  options.input_gaps = program == nullptr;  // a lifetime CSV's gaps are input
  return VerifyPlan(set, PlanOf(set, packed.offsets, packed.peak, lower_bound, alignment),
                    options);
}

// A TFLite model's arena head as TFLite Micro itself sees it
// (io/tflite/micro_lifetimes.h: every tensor its own buffer, no views, live
// by operator index), packed by its greedy planner at its 16-byte alignment:
// the figure `memplan plan`'s summary reports. Verified on those buffers.
CompareRow TfliteMicroHeadRow(const LoadedInput& input) {
  BufferSet head;
  head.input = input.buffers.input;
  std::vector<PackItem> items;
  for (const TfliteHeadTensor& t : input.tflite->head) {
    Buffer b;
    b.name = fmt::format("tensor {}", t.tensor);
    b.size = t.bytes;
    b.start = t.first;
    b.end = t.last;
    head.buffers.push_back(b);
    head.time_steps = std::max<TimeStep>(head.time_steps, t.last + 1);
    items.push_back(PackItem{t.bytes, 1, t.first, t.last});
  }
  const PackResult packed = peers::TfliteMicroGreedyPack(items, kTfliteMicroAlignment);
  const absl::Status verified =
      Verify(head, packed, MaxLiveBytes(items), kTfliteMicroAlignment, nullptr);
  return CompareRow{"tflite-micro-head", "TFLite Micro GreedyMemoryPlanner",
                    "TFLite Micro's own view of the head (each tensor its own buffer, views too; "
                    "live by operator), 16-byte aligned: memplan plan's figure",
                    "io/tflite/micro_lifetimes.h, packing/peers/tflite_micro_greedy.h",
                    "", /*on_memplan_buffers=*/false, packed.peak, verified.ok()};
}

// Whose order each ReorderResult row is (docs/reorder.md's strategy table).
std::string OrderPlanner(const std::string& name) {
  if (name == "input") return "the input's own order";
  if (name == "xla-list") return "XLA ListMemoryScheduler: ready op freeing the most bytes first";
  if (name == "xla-dfs") return "XLA DFSMemoryScheduler: post-order DFS, heavier operands first";
  if (name == "xla-post-order") return "XLA PostOrderMemoryScheduler: plain post-order";
  if (name == "inductor-lpmf") return "Inductor topological_sort_lpmf: least peak memory first";
  if (name == "inductor-bfs") return "Inductor topological_sort_bfs: earliest predecessors first";
  if (name == "inductor-dfs") return "Inductor topological_sort_dfs: smallest ops first";
  if (name == "local-search") return "memplan: local search from the best order so far";
  if (name == "exact") return "exact dynamic program over frontiers (SERENITY, HMCOS): optimal";
  return name;
}

// The reordering strategies' rows: memplan's (the lowest, ties to the
// earlier row), then every row ReorderProgram measured; the exact row only
// where it is proven optimal for the whole program.
CompareOrders OrdersOf(const ReorderResult& r, bool timings) {
  CompareOrders orders;
  orders.input_max_live = r.input_peak;
  orders.lower_bound = r.lower_bound;
  orders.kept = r.strategy;
  double total = 0;
  for (const ReorderRow& row : r.rows) total += row.seconds;
  orders.rows.push_back({"memplan",
                         "memplan --reorder: the lowest row below (kept: " + r.strategy + ")",
                         r.peak, timings ? std::optional<double>(total) : std::nullopt});
  for (const ReorderRow& row : r.rows) {
    if (row.name == "exact" && !r.optimal) continue;
    orders.rows.push_back({row.name, OrderPlanner(row.name), row.peak,
                           timings ? std::optional<double>(row.seconds) : std::nullopt});
  }
  if (!r.optimal) {
    orders.note = fmt::format(
        "exact: no row, not proven optimal for the program ({} proven, {} too large, {} "
        "stopped at the state limit)",
        CountOf(r.exact_proven, "computation"), r.exact_too_large, r.exact_state_limit);
  }
  return orders;
}

absl::Status CheckJsonPath(const std::string& input_path, const std::optional<std::string>& path) {
  if (!path || *path == "-") return absl::OkStatus();
  if (absl::Status s = CheckOutputPath(*path); !s.ok()) return s;
  if (SameFile(*path, input_path)) {
    return LocatedError(*path, SourceLocation{}, "output path is the input file (--json)");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CompareJobResult> RunCompareJob(const std::string& input_path,
                                               const CompareJobOptions& options) {
  if (absl::Status s = CheckJsonPath(input_path, options.json_path); !s.ok()) return s;
  const auto phase = [&](std::string name, std::int64_t total = 0, std::string unit = "") {
    if (options.progress != nullptr) options.progress->Phase(std::move(name), total, std::move(unit));
  };
  phase("importing " + std::filesystem::path(input_path).filename().string());
  absl::StatusOr<LoadedInput> input = LoadInput(input_path, options.load);
  if (!input.ok()) return input.status();
  if (absl::Status s = CheckInputLimits(*input, options.alignment); !s.ok()) return s;
  if (input->program && HasRegions(*input->program)) {
    return absl::InvalidArgumentError(fmt::format(
        "{}: error: compare packs one transient pool, but this program has execution regions "
        "(memplan plan allocates them region by region)",
        input_path));
  }
  // Fixed offsets that collide leave no valid placement for any strategy.
  if (absl::Status s = CheckFixedOffsetsDisjoint(input->buffers); !s.ok()) {
    return absl::FailedPreconditionError(
        fmt::format("{}: error: {}", input_path, std::string(s.message())));
  }
  const Program* program = input->program ? &*input->program : nullptr;
  const BufferSet set = TransientDefaultBuffers(input->buffers);
  const std::vector<PackItem> items = ItemsOf(set);
  // The bound counts the bytes each buffer holds (a window's only), as
  // `memplan plan` reports it; the strategies read windows as whole.
  std::vector<PackItem> held;
  for (const Buffer& b : set.buffers) AppendHeldBytes(b, held);
  const Bytes lower_bound = MaxLiveBytes(held);

  CompareJobResult result;
  CompareTable& table = result.table;
  table.input = input_path;
  table.buffers = static_cast<std::int64_t>(set.buffers.size());
  for (const Buffer& b : set.buffers) table.total_bytes += b.size;
  table.alignment = options.alignment;
  table.lower_bound = lower_bound;
  table.rows.push_back({"lower bound", "", "max over time steps of the bytes live then",
                        "max-live bound (packing.md)", "", true, lower_bound, std::nullopt});

  // memplan's own plan: the transient pool as `memplan plan` packs it.
  phase(fmt::format("packing memplan's plan ({})", CountOf(table.buffers, "buffer")));
  const PackResult own = Pack(items, PackingAlgorithm::kAuto, options.alignment);
  if (absl::Status s = Verify(set, own, lower_bound, options.alignment, program); !s.ok()) {
    return PlanVerificationFailure(input->format, input_path, "plan", std::string(s.message()));
  }
  table.rows.push_back({"memplan", "memplan plan",
                        "portfolio of packers, lowest peak kept",
                        "packing/portfolio.h (docs/packing.md)", "won: " + own.algorithm, true,
                        own.peak, true});

  const std::vector<peers::PeerStrategy>& peer_strategies = peers::PeerStrategies();
  phase("packing with the other planners' strategies",
        static_cast<std::int64_t>(peer_strategies.size()), "strategies");
  std::int64_t peers_done = 0;
  for (const peers::PeerStrategy& peer : peer_strategies) {
    const PackResult packed = peer.pack(items, options.alignment);
    const absl::Status verified = Verify(set, packed, lower_bound, options.alignment, program);
    if (!verified.ok()) {
      result.failures.push_back(fmt::format("{}: {}", peer.name, std::string(verified.message())));
    }
    const std::string detail = packed.algorithm == peer.name ? "" : "won: " + packed.algorithm;
    table.rows.push_back({std::string(peer.name), std::string(peer.planner),
                          std::string(peer.rule), std::string(peer.source), detail, true,
                          packed.peak, verified.ok()});
    if (options.progress != nullptr) options.progress->Advance(++peers_done);
  }

  if (input->tflite) {
    table.rows.push_back(TfliteMicroHeadRow(*input));
    if (!table.rows.back().verified.value_or(false)) {
      result.failures.push_back("tflite-micro-head: the verifier rejected its placement");
    }
  }

  if (input->reorder) table.orders = OrdersOf(*input->reorder, options.timings);
  if (options.msa) {
    phase("planning fast memory");
    absl::StatusOr<CompareTimes> times = CompareTimesOf(input_path, *input, *options.msa, options.alignment);
    if (!times.ok()) return times.status();
    result.does_not_fit = times->does_not_fit;
    table.times = *std::move(times);
  }

  result.text = FormatCompareTable(table);
  if (options.json_path) {
    std::string json = WriteCompareJson(table);
    if (*options.json_path == "-") {
      result.json_stdout = std::move(json);
    } else if (absl::Status s = WriteFileAtomically(*options.json_path, json); !s.ok()) {
      return s;
    }
  }
  return result;
}

}  // namespace memplan
