// The whole core in one include.
#pragma once

#include "additive.hpp"
#include "attention.hpp"
#include "attention_f32.hpp"
#include "cost.hpp"
#include "multi_head.hpp"
#include "random.hpp"
#include "row_stats.hpp"
#include "softmax.hpp"
#include "streaming.hpp"
#include "toy_sentence.hpp"
#include "types.hpp"
#include "width_experiment.hpp"
