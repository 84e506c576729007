#include "bench/shared_data.h"

#include <algorithm>

namespace memplan {

std::vector<std::filesystem::path> SharedLifetimeCsvs() {
  const std::filesystem::path data = std::filesystem::path(MEMPLAN_SHARED_DIR) / "data";
  std::vector<std::filesystem::path> files;
  for (const char* folder : {"minimalloc", "traces"}) {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(data / folder, error)) {
      if (entry.path().extension() == ".csv") files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<PackItem> PackItemsOf(const BufferSet& buffers) {
  std::vector<PackItem> items;
  items.reserve(buffers.buffers.size());
  for (const Buffer& b : buffers.buffers) {
    items.push_back(PackItem{b.size, b.alignment, b.start, b.end});
  }
  return items;
}

}  // namespace memplan
