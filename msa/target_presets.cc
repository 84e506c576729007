// The hierarchy presets as target-file text, parsed like a file so that a
// preset and its copy in examples/targets/ mean the same (a test compares
// them). The numbers and their reasoning are in docs/msa.md ("Memory
// hierarchies").
#include "msa/target_spaces.h"

namespace memplan {

const std::vector<std::string_view>& HierarchyPresetTexts() {
  static const std::vector<std::string_view> texts = {
R"json({
  "name": "mcu-tcm-sram-psram-flash",
  "description": "Cortex-M7-class MCU: 64 KiB TCM, 512 KiB SRAM, 8 MiB PSRAM, weights in 16 MiB flash read in place",
  "flops_per_second": 6e8,
  "transcendentals_per_second": 3e7,
  "spaces": [
    {"name": "tcm", "capacity_bytes": 65536, "alignment": 8,
     "read_bandwidth": 2.4e9, "write_bandwidth": 2.4e9},
    {"name": "sram", "capacity_bytes": 524288, "alignment": 8,
     "read_bandwidth": 1.2e9, "write_bandwidth": 1.2e9},
    {"name": "psram", "capacity_bytes": 8388608, "alignment": 32,
     "read_bandwidth": 1.3e8, "write_bandwidth": 1e8, "latency_seconds": 1e-7},
    {"name": "flash", "kind": "flash", "capacity_bytes": 16777216, "alignment": 32,
     "read_bandwidth": 1e8, "write_bandwidth": 1e8, "latency_seconds": 1e-7}
  ],
  "links": [
    {"from": "sram", "to": "tcm", "bandwidth": 8e8, "queues": 2},
    {"from": "tcm", "to": "sram", "bandwidth": 8e8, "queues": 2},
    {"from": "psram", "to": "tcm", "bandwidth": 1e8},
    {"from": "tcm", "to": "psram", "bandwidth": 8e7},
    {"from": "psram", "to": "sram", "bandwidth": 1e8},
    {"from": "sram", "to": "psram", "bandwidth": 8e7},
    {"from": "flash", "to": "tcm", "bandwidth": 8e7},
    {"from": "flash", "to": "sram", "bandwidth": 8e7}
  ]
})json",
R"json({
  "name": "npu-3level",
  "description": "NPU: 256 KiB scratchpad, 4 MiB on-chip SRAM, 1 GiB LPDDR4X DRAM, ~4 TOPS",
  "flops_per_second": 4e12,
  "transcendentals_per_second": 1e11,
  "spaces": [
    {"name": "scratchpad", "capacity_bytes": 262144, "alignment": 64,
     "read_bandwidth": 2.56e11, "write_bandwidth": 2.56e11},
    {"name": "sram", "capacity_bytes": 4194304, "alignment": 64,
     "read_bandwidth": 6.4e10, "write_bandwidth": 6.4e10},
    {"name": "dram", "capacity_bytes": 1073741824, "alignment": 64,
     "read_bandwidth": 8e9, "write_bandwidth": 8e9, "latency_seconds": 1e-7}
  ],
  "links": [
    {"from": "sram", "to": "scratchpad", "bandwidth": 3.2e10, "queues": 2},
    {"from": "scratchpad", "to": "sram", "bandwidth": 3.2e10, "queues": 2},
    {"from": "dram", "to": "scratchpad", "bandwidth": 8e9},
    {"from": "scratchpad", "to": "dram", "bandwidth": 8e9},
    {"from": "dram", "to": "sram", "bandwidth": 8e9},
    {"from": "sram", "to": "dram", "bandwidth": 8e9}
  ]
})json",
  };
  return texts;
}

}  // namespace memplan
