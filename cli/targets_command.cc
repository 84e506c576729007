#include "cli/targets_command.h"

#include <iostream>
#include <string>

#include "cli/commands.h"
#include "fmt/format.h"
#include "fmt/ranges.h"
#include "io/byte_size.h"
#include "msa/target.h"

namespace memplan::cli {

namespace {

// "8 G" style: three significant digits with a decimal prefix.
std::string Rate(double value) {
  const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
  int p = 0;
  while (p < 5 && value >= 1000) {
    value /= 1000;
    ++p;
  }
  return fmt::format("{:.3g} {}", value, prefixes[p]);
}

// A hierarchy's spaces (fastest first) and links, on the preset's line.
std::string HierarchyLine(const Target& t) {
  std::vector<std::string> spaces, links;
  for (const MemorySpaceSpec& s : t.spaces) {
    spaces.push_back(fmt::format("{} {} (read {}B/s, write {}B/s{})", s.name,
                                 FormatBytes(s.capacity_bytes), Rate(s.read_bandwidth),
                                 Rate(s.write_bandwidth), s.writable ? "" : ", read-only"));
  }
  for (const LinkSpec& l : t.links) {
    links.push_back(fmt::format("{}->{} {}B/s x{}", t.spaces[static_cast<std::size_t>(l.from)].name,
                                t.spaces[static_cast<std::size_t>(l.to)].name, Rate(l.bandwidth),
                                l.queues));
  }
  return fmt::format("; spaces: {}; links: {}", fmt::join(spaces, ", "), fmt::join(links, ", "));
}

}  // namespace

int RunTargets() {
  for (const Target& t : BuiltinTargets()) {
    std::cout << fmt::format(
        "{}: {}flop/s, {}transcendentals/s, default {}B/s, alternate {}B/s, copy {}B/s, fast "
        "memory {}, alignment {} ({})",
        t.name, Rate(t.flops_per_second), Rate(t.transcendentals_per_second),
        Rate(t.default_bandwidth), Rate(t.alternate_bandwidth), Rate(t.copy_bandwidth),
        FormatBytes(t.fast_memory_bytes), t.alignment, t.description);
    if (!t.spaces.empty()) std::cout << HierarchyLine(t);
    std::cout << "\n";
  }
  return kExitOk;
}

CLI::App* AddTargetsCommand(CLI::App& app) {
  return app.add_subcommand(
      "targets", "list the preset machines for --target (name first, then the key figures)");
}

}  // namespace memplan::cli
