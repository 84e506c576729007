// Fuzz target: the text IR parser (docs/ir.md), then the whole `plan` job.
// Oracles: bad text gets a located InvalidArgument; a parsed program prints
// to text that parses back and prints identically (docs/ir.md §6); the plan
// verifies and its JSON reads back and verifies (fuzz_support.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_support.h"
#include "ir/text_parser.h"
#include "ir/text_printer.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  memplan::fuzz::PreferOneThread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace memplan;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<Program> program = ParseProgram(text, "fuzz.mpir");
  fuzz::CheckBadInputError(program.status(), "ParseProgram", {"fuzz.mpir"});
  if (!program.ok()) return 0;
  const std::string printed = PrintProgram(*program);
  absl::StatusOr<Program> again = ParseProgram(printed, "printed.mpir");
  if (!again.ok()) fuzz::Fail("the printed program does not parse", again.status().ToString() + "\n" + printed);
  if (PrintProgram(*again) != printed) fuzz::Fail("printing is not a fixed point", printed);
  const std::string path = fuzz::WriteScratchFile("fuzz.mpir", text);
  fuzz::PlanAndCheck(path, fuzz::FuzzPlanOptions(), "plan (text IR)");
  return 0;
}
