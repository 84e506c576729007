#include "driver/progress.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <utility>

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace memplan {
namespace {

// Columns `text` takes: its code points (the line's characters, "·"
// included, are one column wide each).
std::size_t Columns(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// `text` cut to its first `columns` code points.
std::string CutToColumns(std::string text, std::size_t columns) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((text[i] & 0xC0) != 0x80 && seen++ == columns) {
      text.resize(i);
      break;
    }
  }
  return text;
}

}  // namespace

ProgressReporter::ProgressReporter(bool enabled, Io io, double delay_s, double interval_s)
    : enabled_(enabled),
      io_(std::move(io)),
      delay_s_(delay_s),
      interval_s_(interval_s),
      start_s_(enabled_ ? io_.now() : 0) {}

ProgressReporter::~ProgressReporter() { Finish(); }

std::unique_ptr<ProgressReporter> ProgressReporter::ForStderr(bool quiet) {
  Io io;
  io.now = [] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
  io.write = [](std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
  };
  io.columns = []() -> std::size_t {
    winsize size{};
    if (ioctl(fileno(stderr), TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
  };
  return std::make_unique<ProgressReporter>(!quiet && isatty(fileno(stderr)) != 0, std::move(io));
}

void ProgressReporter::Phase(std::string name, std::int64_t total, std::string unit) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  phase_ = std::move(name);
  unit_ = std::move(unit);
  total_ = total;
  done_ = 0;
  last_draw_s_ = -1;  // a new phase shows at once (once past the delay)
  DrawLocked();
}

void ProgressReporter::Advance(std::int64_t done) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  done_ = done;
  DrawLocked();
}

void ProgressReporter::Tick() {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  DrawLocked();
}

void ProgressReporter::Finish() {
  if (!enabled_) return;
  {
    std::lock_guard lock(mutex_);
    if (finished_) return;
    finished_ = true;
    if (drawn_width_ > 0) {
      io_.write("\r" + std::string(drawn_width_, ' ') + "\r");
      drawn_width_ = 0;
    }
  }
  stop_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

void ProgressReporter::StartTicker() {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  if (finished_ || ticker_.joinable()) return;
  ticker_ = std::thread([this] {
    std::unique_lock guard(mutex_);
    while (!finished_) {
      stop_.wait_for(guard, std::chrono::duration<double>(interval_s_));
      if (!finished_) DrawLocked();
    }
  });
}

std::string ProgressReporter::Line() const {
  std::lock_guard lock(mutex_);
  return LineLocked();
}

std::string ProgressReporter::LineLocked() const {
  std::string line = "memplan: " + phase_;
  if (total_ > 0) {
    line += fmt::format(" {}/{}{}{}", done_, total_, unit_.empty() ? "" : " ", unit_);
  }
  const double elapsed = enabled_ ? io_.now() - start_s_ : 0;
  return line + fmt::format(" · {:.1f} s", elapsed);
}

void ProgressReporter::DrawLocked() {
  if (finished_ || phase_.empty()) return;
  const double now = io_.now();
  if (now - start_s_ < delay_s_) return;
  if (last_draw_s_ >= 0 && now - last_draw_s_ < interval_s_) return;
  last_draw_s_ = now;
  std::string line = LineLocked();
  // One column short of the terminal, so that the line never wraps.
  const std::size_t columns = io_.columns ? io_.columns() : 0;
  if (columns > 1) line = CutToColumns(std::move(line), columns - 1);
  // Spaces over whatever the previous, longer line left behind.
  const std::size_t width = Columns(line);
  if (width < drawn_width_) line += std::string(drawn_width_ - width, ' ');
  io_.write("\r" + line);
  drawn_width_ = std::max(drawn_width_, width);
}

}  // namespace memplan
