//===- StatusTensorTest.cpp - Status, Expected, Tensor, Rng, Progress ------===//
#include "modelrt/cli/Progress.h"
#include "modelrt/core/Rng.h"
#include "modelrt/core/Status.h"
#include "modelrt/core/Tensor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>

using namespace modelrt;

TEST(Status, OkAndError) {
  EXPECT_TRUE(Status::ok().isOk());
  Status e = errorf("%s:%d: bad %s", "f.idx", 12, "thing");
  EXPECT_FALSE(e.isOk());
  EXPECT_EQ(e.message(), "f.idx:12: bad thing");
}

static Expected<int> half(int x) {
  if (x % 2)
    return errorf("%d is odd", x);
  return x / 2;
}

static Status useTry(int x, int &out) {
  auto r = half(x);
  if (!r)
    return r.status();
  out = *r;
  MODELRT_TRY(x > 100 ? errorf("too big") : Status::ok());
  return Status::ok();
}

TEST(Status, ExpectedAndTry) {
  int out = 0;
  EXPECT_TRUE(useTry(8, out).isOk());
  EXPECT_EQ(out, 4);
  EXPECT_EQ(useTry(7, out).message(), "7 is odd");
  EXPECT_EQ(useTry(200, out).message(), "too big");
}

TEST(Tensor, ShapeAndConversion) {
  Tensor t(DType::I32, {2, 3});
  EXPECT_EQ(t.numElements(), 6);
  EXPECT_EQ(t.numBytes(), 24u);
  for (int i = 0; i < 6; ++i)
    t.as<int32_t>()[i] = i - 2;
  Tensor f = t.convertTo(DType::F32);
  EXPECT_EQ(f.dtype(), DType::F32);
  EXPECT_FLOAT_EQ(f.as<float>()[0], -2.0f);
  EXPECT_FLOAT_EQ(f.as<float>()[5], 3.0f);
  EXPECT_TRUE(f.reshape({3, 2}));
  EXPECT_FALSE(f.reshape({4, 2}));
  EXPECT_EQ(shapeToString(f.shape()), "[3, 2]");
  EXPECT_EQ(dtypeSize(DType::U8), 1u);
  EXPECT_FALSE(isValidDType(7));
}

TEST(Rng, ReferenceValues) {
  // splitmix64 from state 0 (reference values from Vigna's splitmix64.c).
  uint64_t s = 0;
  EXPECT_EQ(splitmix64(s), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(splitmix64(s), 0x6E789E6AA1B965F4ULL);
  // xoshiro256** from state {1, 2, 3, 4}: first outputs computed by hand from
  // the reference algorithm: rotl(2*5, 7)*9 = 11520, then 0, then 1509978240.
  Rng r;
  r.setState({1, 2, 3, 4});
  EXPECT_EQ(r.next(), 11520u);
  EXPECT_EQ(r.next(), 0u);
  EXPECT_EQ(r.next(), 1509978240u);
}

TEST(Rng, UniformBelowAndNormal) {
  Rng r(42);
  std::set<uint64_t> seen;
  double sum = 0, sumSq = 0;
  for (int i = 0; i < 20000; ++i) {
    float u = r.uniform();
    ASSERT_GE(u, 0.0f);
    ASSERT_LT(u, 1.0f);
    seen.insert(r.below(7));
    double z = r.normal();
    sum += z;
    sumSq += z * z;
  }
  EXPECT_EQ(seen.size(), 7u);
  EXPECT_LT(*seen.rbegin(), 7u);
  EXPECT_NEAR(sum / 20000, 0.0, 0.05);
  EXPECT_NEAR(sumSq / 20000, 1.0, 0.05);
  Rng a(5), b(5);
  EXPECT_EQ(a.next(), b.next());
  EXPECT_NE(mixSeed(1, 2, 3), mixSeed(1, 3, 2));
}

TEST(Progress, FormatLine) {
  EXPECT_EQ(Progress::formatDuration(65), "1:05");
  EXPECT_EQ(Progress::formatDuration(3725), "1:02:05");
  // 50 of 100 in 10 s: 5/s, 50 left -> ETA 0:10.
  EXPECT_EQ(Progress::formatLine("epoch 1", 50, 100, 10.0, "loss 0.5", true),
            "epoch 1 50/100 [##########..........] 5.0/s ETA 0:10 loss 0.5");
  EXPECT_EQ(Progress::formatLine("e", 4, 4, 2.0, "", false), "e 4/4 2.0/s in 0:02");
  // Training names its items: the rate is batches per second.
  EXPECT_EQ(Progress::formatLine("epoch 1", 469, 469, 0.4, "loss 0.5", false, "batches"),
            "epoch 1 469/469 1172.5 batches/s in 0:00 loss 0.5");
}

TEST(Progress, PlainLinesEveryTenPercent) {
  char *buf = nullptr;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  Progress p(f, "train", 100, /*interactive=*/false);
  for (int i = 1; i <= 100; ++i)
    p.updateAt(i, i * 0.1, "");
  p.finish("done");
  std::fclose(f);
  std::string out(buf, len);
  free(buf);
  int lines = 0;
  for (char c : out)
    lines += c == '\n';
  EXPECT_EQ(lines, 10); // 10%, 20%, ..., 90% and the final line
  EXPECT_NE(out.find("train 10/100 10.0/s ETA 0:09"), std::string::npos);
  EXPECT_EQ(out.find('\r'), std::string::npos);
}

/// What a Progress on \p interactive writes for \p use, up to and with its
/// destruction.
static std::string progressOutput(bool interactive, void (*use)(Progress &)) {
  char *buf = nullptr;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  {
    Progress p(f, "t", 10, interactive);
    use(p);
  }
  std::fclose(f);
  std::string out(buf, len);
  free(buf);
  return out;
}

TEST(Progress, InteractiveRedrawsInPlace) {
  std::string out = progressOutput(true, [](Progress &p) { p.updateAt(5, 1.0, "x"); });
  EXPECT_EQ(out.rfind("\rt 5/10 [##########..........] 5.0/s ETA 0:01 x", 0), 0u);
}

TEST(Progress, ABarLeftUnfinishedEndsItsLine) {
  // An interrupted loop's bar ends its line when it goes, so that the
  // error printed next starts a line of its own; a finished bar has ended
  // it already, and plain lines never leave one open.
  std::string cut = progressOutput(true, [](Progress &p) { p.updateAt(5, 1.0, "x"); });
  EXPECT_EQ(cut, "\rt 5/10 [##########..........] 5.0/s ETA 0:01 x\x1b[K\n");
  std::string done = progressOutput(true, [](Progress &p) {
    p.updateAt(5, 1.0, "");
    p.finish("");
  });
  EXPECT_EQ(std::count(done.begin(), done.end(), '\n'), 1);
  EXPECT_EQ(done.back(), '\n');
  EXPECT_EQ(progressOutput(false, [](Progress &p) { p.updateAt(1, 1.0, ""); }),
            "t 1/10 1.0/s ETA 0:09\n");
  EXPECT_EQ(progressOutput(true, [](Progress &) {}), "");
}
