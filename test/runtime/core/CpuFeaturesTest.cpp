//===- CpuFeaturesTest.cpp - Kernels chosen from CPU features --------------===//
//
// The kernel choice of runtime/lib/core/CpuFeatures.cpp for faked feature sets
// (an SSE-only CPU, an AVX-only one, AVX2-only laptops, AVX-512 with and
// without BF16, a CPU with AMX and the newest AVX-512 extensions), with and
// without the MODELRT_CPU_ISA cap; and the reading of this machine's CPU
// against /proc/cpuinfo, an independent source.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/CpuFeatures.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

using namespace modelrt;

namespace {

CpuFeatures sse42Only() {
  CpuFeatures f;
  f.sse3 = f.ssse3 = f.sse41 = f.sse42 = true;
  return f;
}

CpuFeatures avxOnly() { // Sandy Bridge: AVX without FMA or AVX2
  CpuFeatures f = sse42Only();
  f.avx = true;
  return f;
}

CpuFeatures avx2Laptop() { // Haswell .. Alder Lake, Zen 1-3
  CpuFeatures f = avxOnly();
  f.fma = f.f16c = f.avx2 = true;
  return f;
}

CpuFeatures skylakeServer() {
  CpuFeatures f = avx2Laptop();
  f.avx512f = f.avx512dq = f.avx512cd = f.avx512bw = f.avx512vl = true;
  return f;
}

CpuFeatures withBf16() { // Cooper Lake, Zen 4/5
  CpuFeatures f = skylakeServer();
  f.avx512vnni = f.avx512bf16 = true;
  return f;
}

CpuFeatures withAmx() { // Sapphire Rapids and later, a model no library's table lists
  CpuFeatures f = withBf16();
  f.avx512fp16 = f.amxTile = f.amxBf16 = f.amxInt8 = true;
  f.family = 6;
  f.model = 250;
  return f;
}

/// Sets MODELRT_CPU_ISA to \p value (unsets it when null) while alive.
class ScopedIsa {
public:
  explicit ScopedIsa(const char *value) {
    if (const char *old = std::getenv("MODELRT_CPU_ISA"))
      saved = old, had = true;
    value ? setenv("MODELRT_CPU_ISA", value, 1) : unsetenv("MODELRT_CPU_ISA");
  }
  ~ScopedIsa() { had ? setenv("MODELRT_CPU_ISA", saved.c_str(), 1) : unsetenv("MODELRT_CPU_ISA"); }

private:
  std::string saved;
  bool had = false;
};

/// The flags line of /proc/cpuinfo's first processor (empty if unreadable).
std::string procFlags() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("flags", 0) == 0)
      return " " + line.substr(line.find(':') + 1) + " ";
  return "";
}

bool hasFlag(const std::string &flags, const char *name) {
  return flags.find(" " + std::string(name) + " ") != std::string::npos;
}

} // namespace

TEST(CpuFeatures, EachFeatureSetGetsItsWidestKernels) {
  struct Case {
    CpuFeatures f;
    CpuLevel level;
    const char *core;
  };
  const Case cases[] = {{CpuFeatures(), CpuLevel::Baseline, "Prescott"},
                        {sse42Only(), CpuLevel::Baseline, "Nehalem"},
                        {avxOnly(), CpuLevel::Baseline, "Sandybridge"},
                        {avx2Laptop(), CpuLevel::Avx2, "Haswell"},
                        {skylakeServer(), CpuLevel::Avx512, "SkylakeX"},
                        {withBf16(), CpuLevel::Avx512, "Cooperlake"},
                        {withAmx(), CpuLevel::Avx512, "Cooperlake"}};
  for (const Case &c : cases) {
    KernelChoice k = chooseKernels(c.f);
    EXPECT_EQ(k.level, c.level) << featureList(c.f);
    EXPECT_STREQ(k.openblasCore, c.core) << featureList(c.f);
  }
}

// A CPU model number no table knows changes nothing: only features count.
TEST(CpuFeatures, TheModelNumberDoesNotMatter) {
  CpuFeatures a = withAmx(), b = withAmx();
  b.family = 25, b.model = 17, b.vendor = "AuthenticAMD";
  EXPECT_STREQ(chooseKernels(a).openblasCore, chooseKernels(b).openblasCore);
  EXPECT_EQ(chooseKernels(a).level, chooseKernels(b).level);
}

// AVX-512 needs F, BW, DQ and VL together (Knights Landing had F without BW).
TEST(CpuFeatures, PartialAvx512IsAvx2) {
  CpuFeatures f = avx2Laptop();
  f.avx512f = f.avx512cd = true;
  EXPECT_EQ(chooseKernels(f).level, CpuLevel::Avx2);
  EXPECT_STREQ(chooseKernels(f).openblasCore, "Haswell");
}

TEST(CpuFeatures, TheCapNarrowsTheChoice) {
  EXPECT_EQ(chooseKernels(withAmx(), CpuLevel::Avx2).level, CpuLevel::Avx2);
  EXPECT_STREQ(chooseKernels(withAmx(), CpuLevel::Avx2).openblasCore, "Haswell");
  EXPECT_EQ(chooseKernels(withAmx(), CpuLevel::Baseline).level, CpuLevel::Baseline);
  EXPECT_STREQ(chooseKernels(withAmx(), CpuLevel::Baseline).openblasCore, "Nehalem");
  // A cap above what the CPU has does not widen it.
  EXPECT_EQ(chooseKernels(avx2Laptop(), CpuLevel::Avx512).level, CpuLevel::Avx2);
}

TEST(CpuFeatures, TheEnvironmentSetsTheCap) {
  {
    ScopedIsa isa(nullptr);
    ASSERT_TRUE(cpuLevelCap().isOk());
    EXPECT_EQ(*cpuLevelCap(), CpuLevel::Avx512);
  }
  {
    ScopedIsa isa("avx2");
    EXPECT_EQ(*cpuLevelCap(), CpuLevel::Avx2);
  }
  {
    ScopedIsa isa("baseline");
    EXPECT_EQ(*cpuLevelCap(), CpuLevel::Baseline);
  }
  {
    ScopedIsa isa("sse9");
    Expected<CpuLevel> cap = cpuLevelCap();
    ASSERT_FALSE(cap.isOk());
    EXPECT_EQ(cap.message(), "MODELRT_CPU_ISA is 'sse9'; it takes baseline, avx2 or avx512");
  }
}

TEST(CpuFeatures, DescriptionNamesTheCpuTheKernelsAndTheFeatures) {
  CpuFeatures f = withAmx();
  f.brand = "Some Future Xeon";
  EXPECT_EQ(describeCpu(f, chooseKernels(f)),
            "Some Future Xeon (family 6 model 250): avx512 kernels; "
            "features sse4_2 avx avx2 fma f16c avx512f avx512bw avx512dq avx512vl avx512cd "
            "avx512_vnni avx512_bf16 avx512_fp16 amx_tile amx_bf16 amx_int8");
  EXPECT_EQ(featureList(CpuFeatures()), "none beyond SSE2");
}

// This machine's reading agrees with the kernel's view in /proc/cpuinfo
// (which also reflects what the OS enables).
TEST(CpuFeatures, ReadingMatchesProcCpuinfo) {
  std::string flags = procFlags();
  if (flags.empty())
    GTEST_SKIP() << "no /proc/cpuinfo flags";
  const CpuFeatures &f = hostCpuFeatures();
  EXPECT_EQ(f.sse42, hasFlag(flags, "sse4_2"));
  EXPECT_EQ(f.avx, hasFlag(flags, "avx"));
  EXPECT_EQ(f.fma, hasFlag(flags, "fma"));
  EXPECT_EQ(f.avx2, hasFlag(flags, "avx2"));
  EXPECT_EQ(f.avx512f, hasFlag(flags, "avx512f"));
  EXPECT_EQ(f.avx512bw, hasFlag(flags, "avx512bw"));
  EXPECT_EQ(f.avx512vl, hasFlag(flags, "avx512vl"));
  EXPECT_EQ(f.avx512bf16, hasFlag(flags, "avx512_bf16"));
  EXPECT_EQ(f.amxTile, hasFlag(flags, "amx_tile"));
  EXPECT_FALSE(f.vendor.empty());
}
