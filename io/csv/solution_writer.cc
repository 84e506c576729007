#include "io/csv/solution_writer.h"

#include <algorithm>
#include <string_view>

#include "fmt/format.h"

namespace memplan {
namespace {

std::string FieldOf(std::string_view column, const Buffer& b, Bytes offset) {
  if (column == "id") return b.name.str();
  if (column == "lower") return fmt::format("{}", b.start);
  if (column == "upper") return fmt::format("{}", b.end + 1);
  if (column == "size") return fmt::format("{}", b.size);
  if (column == "alignment") return fmt::format("{}", b.alignment);
  if (column == "offset") return fmt::format("{}", offset);
  if (column == "gaps") return CsvGapsField(b);
  return "";
}

}  // namespace

std::string CsvGapsField(const Buffer& b) {
  struct Entry {
    StepRange steps;
    const OccupancyWindow* window;
  };
  std::vector<Entry> entries;
  for (const StepRange& g : b.gaps) entries.push_back({g, nullptr});
  for (const OccupancyWindow& w : b.windows) entries.push_back({w.steps, &w});
  std::sort(entries.begin(), entries.end(),
            [](const Entry& x, const Entry& y) { return x.steps.first < y.steps.first; });
  std::string field;
  for (const Entry& e : entries) {
    if (!field.empty()) field += ' ';
    field += fmt::format("{}-{}", e.steps.first, e.steps.last + 1);
    if (e.window) field += fmt::format("@{}:{}", e.window->lo, e.window->hi);
  }
  return field;
}

std::string FormatCsvSolution(const BufferSet& buffers, const std::vector<Bytes>& offsets) {
  std::vector<std::string> columns = buffers.csv_columns;
  if (columns.empty()) columns = {"id", "lower", "upper", "size"};
  if (std::find(columns.begin(), columns.end(), "offset") == columns.end()) {
    columns.push_back("offset");
  }
  std::string text;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    text += (c == 0 ? "" : ",") + columns[c];
  }
  text += '\n';
  for (std::size_t i = 0; i < buffers.buffers.size(); ++i) {
    const Bytes offset = i < offsets.size() ? offsets[i] : 0;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (c > 0) text += ',';
      text += FieldOf(columns[c], buffers.buffers[i], offset);
    }
    text += '\n';
  }
  return text;
}

}  // namespace memplan
