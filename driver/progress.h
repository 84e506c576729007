// Progress of a long run on standard error: one line, rewritten in place
// with a carriage return, naming the current phase, its count when it has
// one and the time so far, e.g.
//   memplan: verifying the plan (192 buffers) · 3.4 s
// The line appears only once the run has lasted `delay` (1 s: short runs
// print nothing), only on a terminal and never with --quiet; it is redrawn
// at most every `interval`, and erased (spaces, then a carriage return) when
// the run ends, so that what follows starts on a clean line. Standard output
// and output files are never touched.
//
// The clock and the writer are injected, so the reporter is tested without a
// terminal or real time (tests/driver/progress_test.cc); ForStderr wires the
// real ones. A phase that is one long call redraws its elapsed time from a
// background thread (StartTicker); everything is guarded by one mutex.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace memplan {

class ProgressReporter {
 public:
  struct Io {
    std::function<double()> now;                  // seconds, monotonic
    std::function<void(std::string_view)> write;  // raw text to the terminal
    // The terminal's width in columns; null or 0: unknown (no cut). A line
    // as wide as the terminal would wrap, and "\r" then returns to its last
    // row only, so each redraw would leave a row behind.
    std::function<std::size_t()> columns;
  };

  // `enabled` false: every call is a no-op (nothing written, no thread).
  ProgressReporter(bool enabled, Io io, double delay_s = 1.0, double interval_s = 0.1);
  // Stops the ticker and erases the line (Finish).
  ~ProgressReporter();
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  // On standard error with a steady clock and the terminal's width
  // (TIOCGWINSZ, read at each draw), enabled when `quiet` is false and
  // standard error is a terminal (isatty).
  static std::unique_ptr<ProgressReporter> ForStderr(bool quiet);

  // Starts a phase, e.g. Phase("packing", 5000, "buffers"); `total` 0: no
  // count. Redraws when due.
  void Phase(std::string name, std::int64_t total = 0, std::string unit = "");
  // How many of the phase's `total` are done. Redraws when due.
  void Advance(std::int64_t done);
  // Redraws when due: the run has lasted `delay` and the last draw is
  // `interval` old (the ticker calls this).
  void Tick();
  // Erases the line if one was drawn; later calls draw nothing.
  void Finish();

  // Redraws the line from a background thread every `interval` until
  // Finish, so a phase that is one long call still shows its time.
  void StartTicker();

  // The line as it would be drawn now, e.g. "memplan: packing 12/50 buffers · 1.5 s"
  // (drawn cut to one column less than the terminal's width).
  std::string Line() const;

 private:
  void DrawLocked();
  std::string LineLocked() const;

  const bool enabled_;
  Io io_;
  const double delay_s_;
  const double interval_s_;
  const double start_s_;
  mutable std::mutex mutex_;
  std::condition_variable stop_;
  std::thread ticker_;
  bool finished_ = false;
  std::string phase_;
  std::string unit_;
  std::int64_t total_ = 0;
  std::int64_t done_ = 0;
  double last_draw_s_ = -1;    // < 0: draw at the next chance
  std::size_t drawn_width_ = 0;  // columns
};

}  // namespace memplan
