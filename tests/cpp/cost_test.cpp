#include "cost.hpp"

#include <gmock/gmock-matchers.h>
#include <gtest/gtest.h>

#include "matrices.hpp"

namespace attn {
namespace {

using testing::invalid_argument_message;
using ::testing::HasSubstr;

TEST(Cost, ParametersDoNotGrowWithHeads) {
  for (double h : {1, 2, 4, 8, 16}) {
    const Cost c = attention_cost({10, 10, 512, h, 4});
    EXPECT_EQ(c.parameters, 1048576) << "h = " << h;
  }
  // 3 projections × (512 × 64) × 8 heads, plus W_O.
  EXPECT_EQ(3.0 * 512 * 64 * 8, 786432);
  const Cost paper = attention_cost({1, 1, 512, 8, 4});
  EXPECT_EQ(paper.projection_parameters, 786432);
  EXPECT_EQ(paper.output_parameters, 262144);
  EXPECT_EQ(paper.parameters, paper.projection_parameters + paper.output_parameters);
}

TEST(Cost, VisionTransformerSizedInput) {
  const Cost c = attention_cost({196, 196, 768, 12, 4});
  EXPECT_EQ(c.qk_macs, 196.0 * 196 * 768);
  EXPECT_NEAR(c.qk_macs / 1e6, 29.5, 0.05);
  EXPECT_NEAR(c.av_macs / 1e6, 29.5, 0.05);
  EXPECT_NEAR(c.projection_macs / 1e6, 462, 0.5);
  EXPECT_NEAR(c.projection_macs / (c.qk_macs + c.av_macs), 7.8, 0.05);  // "8× more than the pairs"
  EXPECT_EQ(c.weight_numbers_per_head, 38416);
  EXPECT_NEAR(c.weight_bytes_all_heads / 1e6, 1.8, 0.05);
}

TEST(Cost, PixelsAreTenGigabytesPerHead) {
  const Cost c = attention_cost({50176, 50176, 768, 12, 4});
  EXPECT_NEAR(c.weight_bytes_per_head / 1e9, 10.07, 0.01);
}

TEST(Cost, CrossAttentionProjectsQueriesAndKeysSeparately) {
  const Cost c = attention_cost({3, 8, 16, 4, 8});
  EXPECT_EQ(c.qk_macs, 3.0 * 8 * 16);
  EXPECT_EQ(c.projection_macs, (2.0 * 3 + 2.0 * 8) * 16 * 16);
  EXPECT_EQ(c.weight_bytes_per_head, 3.0 * 8 * 8);
}

TEST(Cost, LayerComparisonRows) {
  const auto rows = layer_comparison(196, 768, 3);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].layer, "self-attention");
  EXPECT_EQ(rows[0].complexity_per_layer, 196.0 * 196 * 768);
  EXPECT_EQ(rows[1].complexity_per_layer, 196.0 * 768 * 768);
  EXPECT_EQ(rows[1].sequential_operations, 196);
  EXPECT_EQ(rows[2].complexity_per_layer, 3.0 * 196 * 768 * 768);
  EXPECT_EQ(rows[2].maximum_path_length, 5);  // ⌈log₃ 196⌉
  // Self-attention is cheaper than recurrence exactly while n < d.
  EXPECT_LT(rows[0].complexity_per_layer, rows[1].complexity_per_layer);
  const auto long_rows = layer_comparison(50176, 768, 3);
  EXPECT_GT(long_rows[0].complexity_per_layer, long_rows[1].complexity_per_layer);
}

TEST(CostErrors, Arguments) {
  EXPECT_THAT(invalid_argument_message([] { attention_cost({196, 196, 768, 5, 4}); }),
              HasSubstr("heads h = 5 must divide d_model = 768"));
  EXPECT_THAT(invalid_argument_message([] { attention_cost({0, 1, 8, 1, 4}); }),
              HasSubstr("n must be a whole number >= 1, got 0"));
  EXPECT_THAT(invalid_argument_message([] { attention_cost({2.5, 1, 8, 1, 4}); }), HasSubstr("n must be a whole number"));
  EXPECT_THAT(invalid_argument_message([] { layer_comparison(10, 8, 1); }), HasSubstr("kernel width k must be at least 2"));
}

}  // namespace
}  // namespace attn
