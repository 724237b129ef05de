//===- GradReduceTest.cpp - Bucketed gradient sums against a plain sum -----===//
#include "modelrt/dist/GradReduce.h"

#include "dist/ThreadCollective.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace modelrt;

/// Rank \p r's gradient element \p i of parameter \p p.
static float gradValue(int r, size_t p, size_t i) {
  return std::sin(float(r * 131 + p * 17 + i) * 0.37f) * float(1 + r);
}

TEST(GradReduce, BucketsSumLikeAPlainSum) {
  const std::vector<int64_t> sizes = {5, 0, 1000, 3, 37};
  for (int ranks : {1, 2, 3})
    for (size_t bucketBytes : {size_t(64), size_t(4000), size_t(1) << 20}) {
      ThreadGroup group(ranks);
      std::vector<std::vector<std::vector<float>>> results(static_cast<size_t>(ranks));
      group.run([&](Collective &c) {
        std::vector<std::vector<float>> g;
        std::vector<float *> ptrs;
        for (size_t p = 0; p < sizes.size(); ++p) {
          g.emplace_back(size_t(sizes[p]));
          for (size_t i = 0; i < g[p].size(); ++i)
            g[p][i] = gradValue(c.rank(), p, i);
        }
        for (auto &v : g)
          ptrs.push_back(v.data());
        GradReduce reduce(c, sizes, bucketBytes);
        EXPECT_EQ(reduce.bytesPerStep(), 1045u * 4);
        EXPECT_EQ(reduce.buckets(), (1045 * 4 + bucketBytes - 1) / bucketBytes);
        ASSERT_TRUE(reduce.reduce(ptrs.data(), 0.5f + float(c.rank())).isOk());
        results[size_t(c.rank())] = g;
      });
      for (size_t p = 0; p < sizes.size(); ++p)
        for (size_t i = 0; i < size_t(sizes[p]); ++i) {
          double want = 0;
          for (int r = 0; r < ranks; ++r)
            want += double(gradValue(r, p, i)) * (0.5 + r);
          for (int r = 0; r < ranks; ++r)
            ASSERT_NEAR(results[size_t(r)][p][i], want, 1e-5 * (1 + std::fabs(want)))
                << "rank " << r << " parameter " << p << " element " << i;
        }
    }
}

TEST(GradReduce, OneProcessScalesOnly) {
  auto one = singleProcess();
  std::vector<float> g = {1, -2, 3};
  float *ptr = g.data();
  GradReduce reduce(*one, {3}, 4);
  ASSERT_TRUE(reduce.reduce(&ptr, 0.25f).isOk());
  EXPECT_EQ(g, (std::vector<float>{0.25f, -0.5f, 0.75f}));
}
