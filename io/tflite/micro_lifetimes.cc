#include "io/tflite/micro_lifetimes.h"

#include <algorithm>

namespace memplan {

std::vector<TfliteHeadTensor> TfliteMicroHeadTensors(const TfliteModel& model) {
  const TfliteSubgraph& sg = model.subgraphs[0];
  const std::int64_t n = static_cast<std::int64_t>(sg.tensors.size());
  const std::int64_t last_op = std::max<std::int64_t>(0, static_cast<std::int64_t>(sg.operators.size()) - 1);
  std::vector<std::int64_t> first(n, -1), last(n, -1);
  const auto touch = [&](std::int32_t t, std::int64_t at) {
    if (t < 0) return;
    if (first[t] < 0 || at < first[t]) first[t] = at;
    last[t] = std::max(last[t], at);
  };
  for (std::int32_t t : sg.inputs) touch(t, 0);
  for (std::size_t i = 0; i < sg.operators.size(); ++i) {
    const TfliteOperator& op = sg.operators[i];
    for (const auto* list : {&op.inputs, &op.outputs, &op.intermediates}) {
      for (std::int32_t t : *list) touch(t, static_cast<std::int64_t>(i));
    }
  }
  for (std::int32_t t : sg.outputs) touch(t, last_op);
  std::vector<TfliteHeadTensor> head;
  for (std::int64_t t = 0; t < n; ++t) {
    const TfliteTensor& tensor = sg.tensors[t];
    if (first[t] < 0 || tensor.is_variable || model.buffers[tensor.buffer].data_bytes > 0) continue;
    const std::optional<TfliteDtype> dtype = TfliteDtypeOf(tensor.type);
    if (!dtype) continue;
    __int128 bits = dtype->bits;
    bool valid = true;
    for (std::int32_t d : tensor.shape) {
      bits *= d;
      if (d < 0 || bits > (static_cast<__int128>(1) << 65)) valid = false;
      if (!valid) break;
    }
    if (!valid) continue;
    head.push_back(TfliteHeadTensor{static_cast<std::int32_t>(t),
                                    static_cast<std::int64_t>((bits + 7) / 8), first[t], last[t]});
  }
  return head;
}

}  // namespace memplan
