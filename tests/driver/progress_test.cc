#include "driver/progress.h"

#include <string>
#include <string_view>
#include <utility>

#include <gtest/gtest.h>

namespace memplan {
namespace {

// A reporter on a fake clock whose output is collected in `out`.
struct Fake {
  double now = 100;
  std::string out;
  ProgressReporter::Io Io() {
    return {[this] { return now; }, [this](std::string_view text) { out += text; }, nullptr};
  }
};

// On a 20-column terminal the line is cut to 19 columns (a wrapped line
// would leave one row behind at each redraw: a trial's 80-column tmux).
TEST(ProgressTest, TheLineIsCutShortOfTheTerminalWidth) {
  Fake fake;
  ProgressReporter::Io io = fake.Io();
  io.columns = [] { return std::size_t{20}; };
  ProgressReporter progress(true, std::move(io), 1.0, 0.1);
  progress.Phase("exact", 0);
  fake.now += 1.5;
  progress.Tick();
  EXPECT_EQ(fake.out, "\rmemplan: exact · 1.");  // 19 columns, 20 bytes
  progress.Finish();
  EXPECT_EQ(fake.out, "\rmemplan: exact · 1.\r" + std::string(19, ' ') + "\r");
}

TEST(ProgressTest, NothingWhenDisabled) {
  Fake fake;
  {
    ProgressReporter progress(false, fake.Io());
    progress.Phase("packing", 10, "buffers");
    fake.now += 5;
    progress.Advance(3);
    progress.Tick();
    progress.Finish();
  }
  EXPECT_EQ(fake.out, "");
}

TEST(ProgressTest, NothingBeforeTheDelayAndNothingToEraseForAShortRun) {
  Fake fake;
  ProgressReporter progress(true, fake.Io(), /*delay_s=*/1.0, /*interval_s=*/0.1);
  progress.Phase("importing m.onnx");
  fake.now += 0.9;
  progress.Phase("packing", 10, "buffers");
  progress.Advance(9);
  progress.Finish();
  EXPECT_EQ(fake.out, "");
}

TEST(ProgressTest, OneUpdatingLineAfterTheDelayThenErased) {
  Fake fake;
  ProgressReporter progress(true, fake.Io(), 1.0, 0.1);
  progress.Phase("packing", 50, "buffers");
  fake.now += 1.5;
  progress.Advance(12);
  EXPECT_EQ(fake.out, "\rmemplan: packing 12/50 buffers · 1.5 s");
  fake.now += 0.05;  // within the interval: not redrawn
  progress.Advance(13);
  EXPECT_EQ(fake.out, "\rmemplan: packing 12/50 buffers · 1.5 s");
  fake.now += 0.05;
  progress.Phase("verifying");  // a new phase draws at once, over the longer line
  const std::string first = "memplan: packing 12/50 buffers · 1.5 s";
  const std::string second = "memplan: verifying · 1.6 s";
  EXPECT_EQ(fake.out, "\r" + first + "\r" + second + std::string(first.size() - second.size(), ' '));
  progress.Finish();
  // As many spaces as the line had columns ("·" is two bytes, one column).
  const std::string erase = "\r" + std::string(first.size() - 1, ' ') + "\r";
  EXPECT_EQ(fake.out.substr(fake.out.size() - erase.size()), erase);
  // Finished: nothing more, even on later calls.
  const std::size_t size = fake.out.size();
  fake.now += 10;
  progress.Tick();
  progress.Finish();
  EXPECT_EQ(fake.out.size(), size);
}

TEST(ProgressTest, TickRedrawsTheElapsedTime) {
  Fake fake;
  ProgressReporter progress(true, fake.Io(), 1.0, 0.1);
  progress.Phase("memory space assignment");
  fake.now += 2;
  progress.Tick();
  fake.now += 0.5;
  progress.Tick();
  EXPECT_EQ(fake.out,
            "\rmemplan: memory space assignment · 2.0 s"
            "\rmemplan: memory space assignment · 2.5 s");
  EXPECT_EQ(progress.Line(), "memplan: memory space assignment · 2.5 s");
}

TEST(ProgressTest, TickerThreadStopsOnFinish) {
  Fake fake;
  ProgressReporter progress(true, fake.Io(), 0.0, 0.001);
  progress.StartTicker();
  progress.Finish();  // joins the thread; nothing was drawn without a phase
  EXPECT_EQ(fake.out, "");
}

}  // namespace
}  // namespace memplan
