#include "io/csv/solution_writer.h"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "fmt/format.h"

namespace memplan {
namespace {

enum class SolutionField { kId, kLower, kUpper, kSize, kAlignment, kOffset, kGaps, kNone };

SolutionField FieldNamed(std::string_view column) {
  if (column == "id") return SolutionField::kId;
  if (column == "lower") return SolutionField::kLower;
  if (column == "upper") return SolutionField::kUpper;
  if (column == "size") return SolutionField::kSize;
  if (column == "alignment") return SolutionField::kAlignment;
  if (column == "offset") return SolutionField::kOffset;
  if (column == "gaps") return SolutionField::kGaps;
  return SolutionField::kNone;
}

void AppendField(std::string& out, SolutionField field, const Buffer& b, Bytes offset) {
  switch (field) {
    case SolutionField::kId: out.append(b.name.view()); break;
    case SolutionField::kLower: fmt::format_to(std::back_inserter(out), "{}", b.start); break;
    case SolutionField::kUpper: fmt::format_to(std::back_inserter(out), "{}", b.end + 1); break;
    case SolutionField::kSize: fmt::format_to(std::back_inserter(out), "{}", b.size); break;
    case SolutionField::kAlignment: fmt::format_to(std::back_inserter(out), "{}", b.alignment); break;
    case SolutionField::kOffset: fmt::format_to(std::back_inserter(out), "{}", offset); break;
    case SolutionField::kGaps: out += CsvGapsField(b); break;
    case SolutionField::kNone: break;
  }
}

}  // namespace

std::string CsvGapsField(const Buffer& b) {
  struct Entry {
    StepRange steps;
    const OccupancyWindow* window;
  };
  std::vector<Entry> entries;
  for (const StepRange& g : b.gaps()) entries.push_back({g, nullptr});
  for (const OccupancyWindow& w : b.windows()) entries.push_back({w.steps, &w});
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

absl::Status WriteCsvSolution(const BufferSet& buffers,
                              absl::FunctionRef<Bytes(std::size_t)> offset_of, TextSink sink) {
  std::vector<std::string> columns = buffers.csv_columns;
  if (columns.empty()) columns = {"id", "lower", "upper", "size"};
  if (std::find(columns.begin(), columns.end(), "offset") == columns.end()) {
    columns.push_back("offset");
  }
  std::vector<SolutionField> fields;
  for (const std::string& column : columns) fields.push_back(FieldNamed(column));
  ChunkedText out(sink);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    out.text() += (c == 0 ? "" : ",") + columns[c];
  }
  out.text() += '\n';
  for (std::size_t i = 0; i < buffers.buffers.size(); ++i) {
    const Bytes offset = offset_of(i);
    for (std::size_t c = 0; c < fields.size(); ++c) {
      if (c > 0) out.text() += ',';
      AppendField(out.text(), fields[c], buffers.buffers[i], offset);
    }
    out.text() += '\n';
    if (absl::Status s = out.Pass(); !s.ok()) return s;
  }
  return out.Flush();
}

std::string FormatCsvSolution(const BufferSet& buffers, const std::vector<Bytes>& offsets) {
  std::string text;
  // Appending to a string cannot fail.
  (void)WriteCsvSolution(
      buffers, [&](std::size_t i) { return i < offsets.size() ? offsets[i] : Bytes{0}; },
      [&](std::string_view piece) {
        text.append(piece);
        return absl::OkStatus();
      });
  return text;
}

}  // namespace memplan
