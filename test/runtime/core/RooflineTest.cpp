//===- RooflineTest.cpp - The roofline's numbers and its chart -------------===//
//
// Checks Roofline.h and RooflinePlot.h against numbers worked out by hand:
// intensity, the roof at an intensity and the ridge; which kernels are
// placed and their rate, roof and time share; the decades a log axis
// spans; where a point and the two roofs land in the SVG; a product
// kernel's precision and its fraction of that precision's peak; and that
// the measured peaks (f32, and bf16 on the host's path) and bandwidth of
// this machine are plausible.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"
#include "modelrt/core/CpuFeatures.h"
#include "modelrt/core/Roofline.h"
#include "modelrt/io/RooflinePlot.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace modelrt;
using namespace modelrt_test;

namespace {

/// A machine of 100 GFLOP/s and 20 GB/s: the ridge at 5 FLOPs per byte.
MachineRoof handRoof() {
  MachineRoof r;
  r.peakGflops = 100, r.bandwidthGBs = 20, r.threads = 2, r.isa = "avx2";
  return r;
}

/// A product (4e9 FLOPs on 1e8 bytes in 0.5 s), an elementwise kernel (1e8
/// FLOPs on 4e8 bytes in 0.25 s) and a copy (no FLOPs, 0.25 s).
std::vector<KernelStats> handKernels() {
  std::vector<KernelStats> ks(3);
  ks[0].name = "train_step.k3.matmul.cblas_sgemm @ m.model:4", ks[0].seconds = 0.5;
  ks[0].flops = 4e9, ks[0].bytes = 1e8;
  ks[1].name = "train_step.k4.add.relu @ m.model:5 <&>", ks[1].seconds = 0.25;
  ks[1].flops = 1e8, ks[1].bytes = 4e8;
  ks[2].name = "train_step.k5.copy", ks[2].seconds = 0.25, ks[2].bytes = 1e6;
  return ks;
}

} // namespace

TEST(Roofline, IntensityRoofAndRidge) {
  MachineRoof r = handRoof();
  EXPECT_DOUBLE_EQ(arithmeticIntensity(4e9, 1e8), 40.0);
  EXPECT_DOUBLE_EQ(arithmeticIntensity(1, 0), 0.0);
  EXPECT_DOUBLE_EQ(ridgeIntensity(r), 5.0);
  EXPECT_DOUBLE_EQ(attainableGflops(r, 0.25), 5.0);  // 20 GB/s x 0.25
  EXPECT_DOUBLE_EQ(attainableGflops(r, 2), 40.0);    // 20 GB/s x 2
  EXPECT_DOUBLE_EQ(attainableGflops(r, 5), 100.0);   // the ridge
  EXPECT_DOUBLE_EQ(attainableGflops(r, 40), 100.0);  // the peak
}

TEST(Roofline, KernelsWithFlopsAndBytesArePlaced) {
  std::vector<RooflinePoint> p = placeKernels(handKernels(), handRoof());
  ASSERT_EQ(p.size(), 2u); // the copy has no FLOPs
  EXPECT_EQ(p[0].name, "train_step.k3.matmul.cblas_sgemm @ m.model:4");
  EXPECT_DOUBLE_EQ(p[0].intensity, 40.0);
  EXPECT_DOUBLE_EQ(p[0].gflops, 8.0);
  EXPECT_DOUBLE_EQ(p[0].roofGflops, 100.0);
  EXPECT_DOUBLE_EQ(p[0].share, 0.5); // of 1 s, the copy included
  EXPECT_DOUBLE_EQ(p[1].intensity, 0.25);
  EXPECT_DOUBLE_EQ(p[1].gflops, 0.4);
  EXPECT_DOUBLE_EQ(p[1].roofGflops, 5.0);
  EXPECT_DOUBLE_EQ(p[1].share, 0.25);
}

TEST(Roofline, LogAxesSpanWholeDecades) {
  int lo, hi;
  logDecades({0.25, 40}, lo, hi);
  EXPECT_EQ(lo, -1);
  EXPECT_EQ(hi, 2);
  logDecades({1, 100}, lo, hi);
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 2);
  logDecades({3, 3, 0, -1, NAN}, lo, hi); // only positive finite values count
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 1);
}

TEST(Roofline, ChartPlacesPointsAndRoofs) {
  std::vector<KernelStats> ks = handKernels();
  std::vector<RooflinePoint> p = placeKernels(ks, handRoof());
  std::string svg = renderRoofline(p, handRoof(), "m: roofline", 1);
  // x spans 10^-1 .. 10^2 (0.25 .. 40, the ridge x 8 = 40) over 850 px from
  // x = 80; y spans 10^-1 .. 10^2 (0.4 .. 100) over 400 px from y = 440 up.
  // The product: x = 80 + (log10 40 + 1) / 3 * 850 = 817.3,
  // y = 440 - (log10 8 + 1) / 3 * 400 = 186.3, r = 3 + 15 sqrt(0.5) = 13.6.
  EXPECT_NE(svg.find("cx=\"817.3\" cy=\"186.3\" r=\"13.6\""), std::string::npos) << svg;
  // The memory roof from (0.1, 2 GFLOP/s) to the ridge (5, 100): y of 2 is
  // 440 - (log10 2 + 1) / 3 * 400 = 266.5, x of 5 is 80 + (log10 5 + 1) / 3
  // * 850 = 561.4; the compute roof from there to x = 930 at y = 40.
  EXPECT_NE(svg.find("id=\"roof-memory\" x1=\"80.0\" y1=\"266.5\" x2=\"561.4\" y2=\"40.0\""),
            std::string::npos) << svg;
  EXPECT_NE(svg.find("id=\"roof-compute\" x1=\"561.4\" y1=\"40.0\" x2=\"930.0\" y2=\"40.0\""),
            std::string::npos) << svg;
  EXPECT_NE(svg.find("memory bandwidth 20.0 GB/s"), std::string::npos);
  EXPECT_NE(svg.find("FMA peak 100.0 GFLOP/s (avx2, 2 threads)"), std::string::npos);
  EXPECT_NE(svg.find("1. train_step.k3.matmul.cblas_sgemm @ m.model:4: 8 GFLOP/s at 40 FLOP/B, "
                     "roof 100 GFLOP/s, 50.0% of kernel time"), std::string::npos) << svg;
  EXPECT_NE(svg.find("m.model:5 &lt;&amp;&gt;"), std::string::npos); // escaped
  EXPECT_NE(svg.find("2 kernels placed; 1 without FLOPs or bytes"), std::string::npos);
}

TEST(Roofline, Bf16ProductsHaveTheirOwnRoof) {
  // The product ran on AVX512-BF16; the bf16 peak is 400 GFLOP/s, so its
  // ridge is at 20 FLOP/B and its roof at 40 FLOP/B is min(400, 800) = 400.
  std::vector<KernelStats> ks = handKernels();
  ks[0].productRuns = productRunBit(true, Bf16Path::Avx512Bf16);
  MachineRoof roof = handRoof();
  roof.bf16PeakGflops = 400;
  std::vector<RooflinePoint> p = placeKernels(ks, roof);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_TRUE(p[0].bf16);
  EXPECT_FALSE(p[1].bf16);
  EXPECT_DOUBLE_EQ(p[0].roofGflops, 400);
  EXPECT_DOUBLE_EQ(p[1].roofGflops, 20 * 0.25); // f32 kernel: the memory roof
  std::string svg = renderRoofline(p, roof, "m: roofline", 1);
  // x spans 10^-1 .. 10^3 (the bf16 ridge x 8 = 160) over 850 px from x =
  // 80, 212.5 px a decade; y spans 10^-1 .. 10^3 (0.4 .. 400) over 400 px
  // from y = 440 up, 100 px a decade. f32 ridge 5: x = 80 + 1.699 * 212.5 =
  // 441.0, y of 100 = 140.0; bf16 ridge 20: x = 80 + 2.301 * 212.5 = 569.0,
  // y of 400 = 440 - 3.602 * 100 = 79.8.
  EXPECT_NE(svg.find("id=\"roof-memory-bf16\" x1=\"441.0\" y1=\"140.0\" x2=\"569.0\" "
                     "y2=\"79.8\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("id=\"roof-compute-bf16\" x1=\"569.0\" y1=\"79.8\" x2=\"930.0\" "
                     "y2=\"79.8\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("bf16 peak 400.0 GFLOP/s"), std::string::npos);
  // The product at (40, 8): x = 80 + 2.602 * 212.5 = 632.9, y = 440 -
  // 1.903 * 100 = 249.7, in the bf16 roof's colour.
  EXPECT_NE(svg.find("cx=\"632.9\" cy=\"249.7\" r=\"13.6\" fill=\"#ff7f0e\""),
            std::string::npos) << svg;
  EXPECT_NE(svg.find("roof 400 GFLOP/s"), std::string::npos);
  // Emulated bf16 (no bf16 instruction) and an f32-only profile: no bf16 roof.
  ks[0].productRuns = productRunBit(true, Bf16Path::Emulated);
  EXPECT_EQ(renderRoofline(placeKernels(ks, roof), roof, "m", 1).find("roof-compute-bf16"),
            std::string::npos);
  EXPECT_EQ(renderRoofline(placeKernels(handKernels(), roof), roof, "m", 1).find("bf16"),
            std::string::npos);
}

TEST(Roofline, WriteErrorsNameTheFile) {
  TempDir tmp;
  std::string path = tmp.path("missing/r.svg");
  Status s = writeRoofline(path, {}, handRoof(), "m", 0);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.message().find(path + ": cannot create a temporary file in '" + tmp.path("missing") +
                             "'"), 0u) << s.message();
}

TEST(Roofline, MeasuredRoofsArePlausible) {
  MachineRoof r = measureMachineRoof();
  // Any CPU of the last decades: between 1 and 10^5 GFLOP/s of f32 FMAs,
  // between 0.5 and 10^4 GB/s of memory bandwidth.
  EXPECT_GT(r.peakGflops, 1.0);
  EXPECT_LT(r.peakGflops, 1e5);
  EXPECT_GT(r.bandwidthGBs, 0.5);
  EXPECT_LT(r.bandwidthGBs, 1e4);
  EXPECT_FALSE(r.isa.empty());
  std::printf("measured: FMA peak %.1f GFLOP/s (%s, %d threads), triad %.1f GB/s\n",
              r.peakGflops, r.isa.c_str(), r.threads, r.bandwidthGBs);
}

/// A machine of 400 GFLOP/s in f32 and 1600 GFLOP/s on its AMX path.
MachinePeaks handPeaks() {
  MachinePeaks p;
  p.f32Gflops = 400, p.bf16Gflops = 1600, p.bf16Path = Bf16Path::Amx;
  p.threads = 2, p.isa = "avx512";
  return p;
}

/// A product kernel of 2e9 FLOPs in 10 ms (200 GFLOP/s) that ran \p runs.
KernelStats productKernel(unsigned runs) {
  KernelStats k;
  k.name = "train_step.k0.matmul.modelrt_gemm_bf16 @ m.model:4";
  k.seconds = 0.01, k.flops = 2e9, k.calls = 1, k.productRuns = runs;
  return k;
}

TEST(Roofline, ProductRateAgainstItsPrecisionsPeak) {
  MachinePeaks peaks = handPeaks();
  // f32: 200 of 400 GFLOP/s.
  ProductRate f32 = productRate(productKernel(productRunBit(false)), peaks);
  EXPECT_EQ(f32.precision, "f32");
  EXPECT_DOUBLE_EQ(f32.peakGflops, 400);
  EXPECT_DOUBLE_EQ(f32.fractionOfPeak, 0.5);
  // AMX: 200 of 1600 GFLOP/s.
  ProductRate amx = productRate(productKernel(productRunBit(true, Bf16Path::Amx)), peaks);
  EXPECT_EQ(amx.precision, "bf16 amx");
  EXPECT_DOUBLE_EQ(amx.fractionOfPeak, 0.125);
  // The emulation runs f32 products inside: bf16 emulated, the f32 peak.
  ProductRate emulated = productRate(
      productKernel(productRunBit(true, Bf16Path::Emulated) | productRunBit(false)), peaks);
  EXPECT_EQ(emulated.precision, "bf16 emulated");
  EXPECT_DOUBLE_EQ(emulated.fractionOfPeak, 0.5);
  // Two paths: both named, rated against the widest one's peak.
  ProductRate both = productRate(
      productKernel(productRunBit(true, Bf16Path::Amx) | productRunBit(true, Bf16Path::Emulated)),
      peaks);
  EXPECT_EQ(both.precision, "bf16 amx+emulated");
  EXPECT_DOUBLE_EQ(both.fractionOfPeak, 0.125);
  // A path that is not the host's was not measured: no fraction.
  ProductRate other =
      productRate(productKernel(productRunBit(true, Bf16Path::Avx512Bf16)), peaks);
  EXPECT_EQ(other.precision, "bf16 avx512_bf16");
  EXPECT_EQ(other.fractionOfPeak, 0);
  // No product: nothing to say.
  EXPECT_TRUE(productRate(productKernel(0), peaks).precision.empty());
}

TEST(Roofline, MeasuredBf16PeakIsPositive) {
  const MachinePeaks &p = hostPeaks();
  EXPECT_GT(p.f32Gflops, 1.0);
  EXPECT_GT(p.bf16Gflops, 1.0);
  EXPECT_EQ(&p, &hostPeaks()); // measured once
  if (p.bf16Path == Bf16Path::Emulated)
    EXPECT_EQ(p.bf16Gflops, p.f32Gflops);
  std::printf("measured: f32 FMA peak %.1f GFLOP/s, bf16 %s peak %.1f GFLOP/s (%s, %d threads)\n",
              p.f32Gflops, bf16PathName(p.bf16Path), p.bf16Gflops, p.isa.c_str(), p.threads);
  // Each bf16 instruction this CPU has, on one thread.
  const CpuFeatures &f = hostCpuFeatures();
  if (supportedLevel(f) == CpuLevel::Avx512 && f.avx512bf16) {
    double v = measureBf16Peak(Bf16Path::Avx512Bf16, 1, 0.01);
    EXPECT_GT(v, 1.0);
    std::printf("measured: vdpbf16ps loop, 1 thread: %.1f GFLOP/s\n", v);
  }
  if (p.bf16Path == Bf16Path::Amx) {
    double v = measureBf16Peak(Bf16Path::Amx, 1, 0.01);
    EXPECT_GT(v, 1.0);
    std::printf("measured: tdpbf16ps loop, 1 thread: %.1f GFLOP/s\n", v);
  }
}
