// What one attention layer costs, in multiply-adds and bytes (Table 1 of the paper and §6).
#pragma once

#include <string>
#include <vector>

namespace attn {

struct CostSetup {
  double n = 0;                // queries
  double m = 0;                // keys and values
  double d_model = 0;          // model width d
  double heads = 1;            // h, dividing d_model
  double bytes_per_number = 4; // 4 for fp32
};

struct Cost {
  double qk_macs = 0;                // Q Kᵀ over all heads: n·m·d
  double av_macs = 0;                // weights · V over all heads: n·m·d
  double projection_macs = 0;        // X W_Q, X W_K, X W_V and the W_O mix: (n + m + m + n)·d²
  double weight_numbers_per_head = 0;// one n×m attention-weight matrix
  double weight_bytes_per_head = 0;
  double weight_bytes_all_heads = 0;
  double projection_parameters = 0;  // W_Q, W_K, W_V: h heads × 3 × (d × d/h) = 3·d²
  double output_parameters = 0;      // W_O: d × d
  double parameters = 0;             // 4·d², whatever h is
  double parameter_bytes = 0;
};

Cost attention_cost(const CostSetup& setup);

// The first three rows of Table 1 of the paper, evaluated at length n, width d, kernel k.
struct LayerComparisonRow {
  std::string layer;
  double complexity_per_layer = 0;
  double sequential_operations = 0;
  double maximum_path_length = 0;
};

std::vector<LayerComparisonRow> layer_comparison(double n, double d, double k);

}  // namespace attn
