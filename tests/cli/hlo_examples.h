// The bundled HLO modules (examples/hlo/), one parameterised test each:
// HloCliTest.EveryBundledModuleIsTested keeps this list complete.
#pragma once

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

namespace memplan::testing_cli {

inline const std::string kHloExamplesDir = MEMPLAN_SOURCE_DIR "/examples/hlo";

inline auto BundledHloModules() {
  return ::testing::Values("async_collectives.hlo", "call_remat.hlo", "conditional_branches.hlo",
                           "conv_block.hlo", "decoder_while.hlo", "mlp.hlo",
                           "multi_output_fusion.hlo", "prefetch_after_msa.hlo", "scan_rnn.hlo",
                           "sgd_train_step.hlo", "transformer_block.hlo");
}

// "decoder_while.hlo" -> "decoderwhile": a gtest parameter name.
inline std::string HloModuleTestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param.substr(0, info.param.find('.'));
  name.erase(std::remove(name.begin(), name.end(), '_'), name.end());
  return name;
}

}  // namespace memplan::testing_cli
