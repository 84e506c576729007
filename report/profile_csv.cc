#include "report/profile_csv.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "analysis/live_profile.h"
#include "io/csv_field.h"
#include "report/peak_attribution.h"
#include "report/space_view.h"

namespace memplan {
namespace {

// One column of live bytes: its header and its step function.
struct Column {
  std::string name;
  LiveProfile profile;
  std::size_t next = 0;  // index of the next change to apply while writing rows
  Bytes bytes = 0;       // value at the current row
};

// The columns of one space: its live bytes, then one per pool (header
// comment); every header ends in ".live_bytes" so that no one reads it as
// the space's extent (the summary's "used").
void AddSpaceColumns(const BufferSet& buffers, const Plan& plan, const SpaceInfo& space,
                     std::vector<Column>& columns) {
  const SpaceView view = ViewSpace(buffers, plan, space.id);
  const BufferSet& segments = view.segments();
  const Buffer* first = segments.buffers.data();
  columns.push_back(
      Column{space.name + ".live_bytes",
             ComputeLiveProfile(segments, [](const Buffer&) { return true; })});
  std::vector<std::string> pools;
  for (const PoolInfo& p : plan.pools) {
    if (p.space == space.id && std::find(pools.begin(), pools.end(), p.name) == pools.end()) {
      pools.push_back(p.name);
    }
  }
  std::set<std::string> received;
  for (std::size_t i = 0; i < view.size(); ++i) {
    // A view that is the input holds buffers without bytes here too.
    if (segments.buffers[i].size <= 0 || segments.buffers[i].inside()) continue;
    const std::string& pool = plan.placements[view.origin(i)].pool;
    if (std::find(pools.begin(), pools.end(), pool) == pools.end()) received.insert(pool);
  }
  pools.insert(pools.end(), received.begin(), received.end());
  for (const std::string& pool : pools) {
    // The profile passes each segment by reference into the view's segments.
    const auto in_pool = [&](const Buffer& s) {
      return plan.placements[view.origin(static_cast<std::size_t>(&s - first))].pool == pool;
    };
    columns.push_back(
        Column{space.name + "." + pool + ".live_bytes", ComputeLiveProfile(segments, in_pool)});
  }
}

// Per step, the names joined by ";" of what happens there, from (step, name)
// pairs sorted by step.
class StepNames {
 public:
  void Add(TimeStep step, const std::string& name) { entries_.emplace_back(step, name); }
  void Sort() {
    std::stable_sort(entries_.begin(), entries_.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
  }
  // Names at `step`; steps must be asked in increasing order.
  std::string At(TimeStep step) {
    while (next_ < entries_.size() && entries_[next_].first < step) ++next_;
    std::string text;
    for (; next_ < entries_.size() && entries_[next_].first == step; ++next_) {
      if (!text.empty()) text += ";";
      text += entries_[next_].second;
    }
    return text;
  }
  const std::vector<std::pair<TimeStep, std::string>>& entries() const { return entries_; }

 private:
  std::vector<std::pair<TimeStep, std::string>> entries_;
  std::size_t next_ = 0;
};

}  // namespace

std::string WriteProfileCsv(const SummaryInput& input, const Plan& plan) {
  const BufferSet& buffers = input.buffers;
  const TimeStep steps = std::max<TimeStep>(0, buffers.time_steps);

  std::vector<SpaceInfo> spaces = plan.spaces;
  std::stable_sort(spaces.begin(), spaces.end(),
                   [](const SpaceInfo& x, const SpaceInfo& y) { return x.id < y.id; });
  std::vector<Column> columns;
  for (const SpaceInfo& space : spaces) AddSpaceColumns(buffers, plan, space, columns);

  StepNames ops, nodes, defined, freed;
  bool named_nodes = false;
  if (input.program && input.schedule) {
    for (OpId op : input.schedule->order) {
      const TimeStep t = input.schedule->op_time[op];
      ops.Add(t, DescribeOp(*input.program, op));
      if (std::optional<std::string> node = StringAttribute(input.program->ops[op], "name")) {
        nodes.Add(t, *node);
        named_nodes = true;
      }
    }
  }
  for (const Buffer& b : buffers.buffers) {
    defined.Add(b.start, b.name.str());
    freed.Add(b.end, b.name.str());
  }
  for (StepNames* names : {&ops, &nodes, &defined, &freed}) names->Sort();

  // The steps that get a row: all of them, or on a long time line step 0
  // and every step where something changes.
  std::vector<TimeStep> rows;
  if (steps <= kDenseProfileSteps) {
    rows.resize(static_cast<std::size_t>(steps));
    for (TimeStep t = 0; t < steps; ++t) rows[static_cast<std::size_t>(t)] = t;
  } else {
    std::set<TimeStep> at = {0};
    for (const Column& c : columns) {
      for (const LiveChange& change : c.profile.changes) at.insert(change.start);
    }
    for (const StepNames* names : {&ops, &defined, &freed}) {
      for (const auto& entry : names->entries()) at.insert(entry.first);
    }
    for (TimeStep t : at) {
      if (t >= 0 && t < steps) rows.push_back(t);
    }
  }

  std::string text = "step,op";
  if (named_nodes) text += ",node";
  for (const Column& c : columns) text += "," + CsvField(c.name);
  text += ",defined,freed\n";
  for (TimeStep t : rows) {
    text += std::to_string(t) + "," + CsvField(ops.At(t));
    if (named_nodes) text += "," + CsvField(nodes.At(t));
    for (Column& c : columns) {
      const std::vector<LiveChange>& changes = c.profile.changes;
      while (c.next < changes.size() && changes[c.next].start <= t) c.bytes = changes[c.next++].bytes;
      text += "," + std::to_string(c.bytes);
    }
    text += "," + CsvField(defined.At(t)) + "," + CsvField(freed.At(t)) + "\n";
  }
  return text;
}

}  // namespace memplan
