// The shared data set's lifetime CSVs (MEMPLAN_SHARED_DIR/data/{minimalloc,
// traces}), for benchmarks; empty when the data set is absent.
#pragma once

#include <filesystem>
#include <vector>

#include "ir/buffer_set.h"
#include "packing/packer.h"

namespace memplan {

// Every *.csv under the shared minimalloc/ and traces/ folders, sorted.
std::vector<std::filesystem::path> SharedLifetimeCsvs();

// The packing items of `buffers` (size, alignment, closed live range).
std::vector<PackItem> PackItemsOf(const BufferSet& buffers);

}  // namespace memplan
