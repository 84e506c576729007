#include "io/tflite/cost.h"

namespace memplan {
namespace {

double TfliteElements(const std::vector<std::int64_t>& dims) {
  double n = 1;
  for (std::int64_t d : dims) n *= static_cast<double>(d);
  return n;
}

}  // namespace

OpCost TfliteOpCost(std::int32_t builtin, const std::vector<std::vector<std::int64_t>>& inputs,
                    const std::vector<std::vector<std::int64_t>>& outputs) {
  OpCost cost;
  if (outputs.empty()) return cost;
  const double out = TfliteElements(outputs[0]);
  const auto filter_dim = [&](std::size_t i) -> double {
    return inputs.size() > 1 && inputs[1].size() > i ? static_cast<double>(inputs[1][i]) : 0;
  };
  switch (builtin) {
    case 3:  // CONV_2D
      cost.flops = 2 * out * filter_dim(1) * filter_dim(2) * filter_dim(3);
      break;
    case 4:  // DEPTHWISE_CONV_2D
      cost.flops = 2 * out * filter_dim(1) * filter_dim(2);
      break;
    case 9:  // FULLY_CONNECTED
      cost.flops = 2 * out * (inputs.size() > 1 && !inputs[1].empty() ? inputs[1].back() : 0);
      break;
    case 0: case 18: case 19: case 41:  // ADD, MUL, RELU, SUB
      cost.flops = out;
      break;
    case 1: case 17: case 40:  // AVERAGE_POOL_2D, MAX_POOL_2D, MEAN
      cost.flops = inputs.empty() ? out : TfliteElements(inputs[0]);
      break;
    case 14: case 25: case 28:  // LOGISTIC, SOFTMAX, TANH
      cost.flops = out;
      cost.transcendentals = out;
      break;
    default:
      break;
  }
  return cost;
}

}  // namespace memplan
