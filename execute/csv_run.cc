#include "execute/csv_run.h"

#include <algorithm>
#include <tuple>

#include "fmt/format.h"

namespace memplan {

namespace {

// A stretch of a buffer's live range holding bytes [lo, hi) of it.
struct Occupancy {
  TimeStep first = 0;
  TimeStep last = 0;
  Bytes lo = 0;
  Bytes hi = 0;
};

std::vector<Occupancy> OccupanciesOf(const Buffer& buffer) {
  std::vector<Occupancy> out;
  for (const StepRange& piece : LivePieces(buffer, buffer.start, buffer.end)) {
    TimeStep at = piece.first;
    for (const OccupancyWindow& w : buffer.windows()) {
      if (w.steps.last < piece.first || w.steps.first > piece.last) continue;
      if (w.steps.first > at) out.push_back({at, w.steps.first - 1, 0, buffer.size});
      out.push_back({std::max(w.steps.first, at), std::min(w.steps.last, piece.last), w.lo, w.hi});
      at = std::min(w.steps.last, piece.last) + 1;
    }
    if (at <= piece.last) out.push_back({at, piece.last, 0, buffer.size});
  }
  return out;
}

struct CsvEvent {
  TimeStep time = 0;
  int phase = 0;  // 0: write, 1: check
  BufferId buffer = kNoId;
  Occupancy occupancy;
  Bytes keep_lo = 0;  // bytes carried over from the previous stretch (write only)
  Bytes keep_hi = 0;
};

}  // namespace

absl::Status RunLifetimeCsv(ExecutionMachine& machine) {
  const BufferSet& buffers = machine.buffers();
  std::vector<CsvEvent> events;
  for (std::size_t b = 0; b < buffers.buffers.size(); ++b) {
    const BufferId id = static_cast<BufferId>(b);
    const std::vector<Occupancy> stretches = OccupanciesOf(buffers.buffers[b]);
    for (std::size_t i = 0; i < stretches.size(); ++i) {
      const Occupancy& o = stretches[i];
      CsvEvent write{o.first, 0, id, o, 0, 0};
      if (i > 0 && stretches[i - 1].last + 1 == o.first) {
        write.keep_lo = std::max(o.lo, stretches[i - 1].lo);
        write.keep_hi = std::min(o.hi, stretches[i - 1].hi);
      }
      events.push_back(write);
      events.push_back({o.last, 1, id, o, 0, 0});
    }
  }
  std::sort(events.begin(), events.end(), [](const CsvEvent& a, const CsvEvent& b) {
    return std::tie(a.time, a.phase, a.buffer) < std::tie(b.time, b.phase, b.buffer);
  });
  for (const CsvEvent& e : events) {
    if (absl::Status s = machine.AdvanceTo(e.time); !s.ok()) return s;
    const std::string name = machine.DescribeBuffer(e.buffer);
    const Occupancy& o = e.occupancy;
    if (e.phase == 1) {
      const std::string reader = fmt::format("step {} (the last of {}'s {})", e.time, name,
                                             o.lo == 0 && o.hi == buffers.buffers[static_cast<std::size_t>(e.buffer)].size
                                                 ? "live stretch"
                                                 : fmt::format("window {}:{}", o.lo, o.hi));
      if (absl::Status s = machine.CheckBuffer(e.buffer, o.lo, o.hi, reader, name); !s.ok()) return s;
      ++machine.report().ops;
      continue;
    }
    // Bytes outside the stretch hold nothing now; those not carried over are written anew.
    const Bytes size = buffers.buffers[static_cast<std::size_t>(e.buffer)].size;
    machine.ClearContent(e.buffer, 0, o.lo);
    machine.ClearContent(e.buffer, o.hi, size);
    if (e.keep_lo >= e.keep_hi) {
      const std::int64_t writer = machine.NewWriter(name, fmt::format("step {}", e.time));
      if (absl::Status s = machine.WriteBuffer(e.buffer, o.lo, o.hi, writer); !s.ok()) return s;
      continue;
    }
    const std::int64_t writer = machine.NewWriter(name, fmt::format("step {}", e.time));
    if (absl::Status s = machine.WriteBuffer(e.buffer, o.lo, e.keep_lo, writer); !s.ok()) return s;
    if (absl::Status s = machine.WriteBuffer(e.buffer, e.keep_hi, o.hi, writer); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace memplan
