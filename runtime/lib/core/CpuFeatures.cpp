//===- CpuFeatures.cpp - cpuid, xgetbv, and the kernels chosen from them ---===//
//
// Implements CpuFeatures.h. A feature counts only when cpuid reports it and
// XCR0 shows that the operating system saves its registers: the YMM state
// for AVX/AVX2/FMA, the opmask and ZMM states for AVX-512, the tile states
// for AMX. The kernel choice reads features alone.
//
//===----------------------------------------------------------------------===//
#include "modelrt/core/CpuFeatures.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace modelrt {
namespace {

#if defined(__x86_64__) || defined(__i386__)
/// The four registers of one cpuid leaf.
struct Leaf {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
};

/// cpuid(leaf, sub); zeros when the leaf is beyond the CPU's highest.
Leaf cpuid(unsigned leaf, unsigned sub = 0) {
  Leaf r;
  unsigned highest = __get_cpuid_max(leaf & 0x80000000u, nullptr);
  if (highest < leaf)
    return r;
  __cpuid_count(leaf, sub, r.eax, r.ebx, r.ecx, r.edx);
  return r;
}

bool bit(unsigned reg, int n) { return (reg >> n) & 1u; }

/// XCR0, the register states the OS saves (0 when it has no XSAVE).
uint64_t xcr0(const Leaf &l1) {
  if (!bit(l1.ecx, 27)) // OSXSAVE
    return 0;
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (uint64_t(hi) << 32) | lo;
}

/// The vendor (leaf 0) and brand (leaves 0x80000002-4) strings.
void readNames(CpuFeatures &f) {
  Leaf l0 = cpuid(0);
  char vendor[13] = {};
  std::memcpy(vendor, &l0.ebx, 4);
  std::memcpy(vendor + 4, &l0.edx, 4);
  std::memcpy(vendor + 8, &l0.ecx, 4);
  f.vendor = vendor;
  char brand[49] = {};
  for (unsigned i = 0; i < 3; ++i) {
    Leaf l = cpuid(0x80000002u + i);
    std::memcpy(brand + 16 * i, &l, 16);
  }
  std::string b = brand;
  size_t first = b.find_first_not_of(' '), last = b.find_last_not_of(' ');
  f.brand = first == std::string::npos ? "" : b.substr(first, last - first + 1);
}

/// Family and model from leaf 1's signature (with the extended fields).
void readSignature(CpuFeatures &f, const Leaf &l1) {
  int family = (l1.eax >> 8) & 0xf, model = (l1.eax >> 4) & 0xf;
  if (family == 15)
    family += (l1.eax >> 20) & 0xff;
  if (family == 6 || family >= 15)
    model += ((l1.eax >> 16) & 0xf) << 4;
  f.family = family;
  f.model = model;
}
#endif

} // namespace

CpuFeatures readCpuFeatures() {
  CpuFeatures f;
#if defined(__x86_64__) || defined(__i386__)
  readNames(f);
  Leaf l1 = cpuid(1), l7 = cpuid(7, 0), l71 = cpuid(7, 1);
  readSignature(f, l1);
  uint64_t xcr = xcr0(l1);
  bool ymm = (xcr & 0x6) == 0x6, zmm = ymm && (xcr & 0xe0) == 0xe0,
       tiles = (xcr & 0x60000) == 0x60000;
  f.sse3 = bit(l1.ecx, 0);
  f.ssse3 = bit(l1.ecx, 9);
  f.sse41 = bit(l1.ecx, 19);
  f.sse42 = bit(l1.ecx, 20);
  f.avx = ymm && bit(l1.ecx, 28);
  f.fma = f.avx && bit(l1.ecx, 12);
  f.f16c = f.avx && bit(l1.ecx, 29);
  f.avx2 = f.avx && bit(l7.ebx, 5);
  f.avx512f = zmm && bit(l7.ebx, 16);
  f.avx512dq = f.avx512f && bit(l7.ebx, 17);
  f.avx512cd = f.avx512f && bit(l7.ebx, 28);
  f.avx512bw = f.avx512f && bit(l7.ebx, 30);
  f.avx512vl = f.avx512f && bit(l7.ebx, 31);
  f.avx512vnni = f.avx512f && bit(l7.ecx, 11);
  f.avx512fp16 = f.avx512f && bit(l7.edx, 23);
  f.avx512bf16 = f.avx512f && bit(l71.eax, 5);
  f.amxBf16 = tiles && bit(l7.edx, 22);
  f.amxTile = tiles && bit(l7.edx, 24);
  f.amxInt8 = tiles && bit(l7.edx, 25);
#endif
  return f;
}

const CpuFeatures &hostCpuFeatures() {
  static const CpuFeatures f = readCpuFeatures();
  return f;
}

CpuLevel supportedLevel(const CpuFeatures &f, CpuLevel cap) {
  bool avx512 = f.avx512f && f.avx512bw && f.avx512dq && f.avx512vl && f.avx2 && f.fma;
  if (cap >= CpuLevel::Avx512 && avx512)
    return CpuLevel::Avx512;
  if (cap >= CpuLevel::Avx2 && f.avx2 && f.fma)
    return CpuLevel::Avx2;
  return CpuLevel::Baseline;
}

KernelChoice chooseKernels(const CpuFeatures &f, CpuLevel cap) {
  KernelChoice k;
  k.level = supportedLevel(f, cap);
  if (k.level == CpuLevel::Avx512)
    k.openblasCore = f.avx512bf16 ? "Cooperlake" : "SkylakeX";
  else if (k.level == CpuLevel::Avx2)
    k.openblasCore = "Haswell";
  else if (cap >= CpuLevel::Avx2 && f.avx)
    k.openblasCore = "Sandybridge";
  else if (f.sse42)
    k.openblasCore = "Nehalem";
  else if (f.ssse3)
    k.openblasCore = "Core2";
  else
    k.openblasCore = "Prescott";
  return k;
}

Expected<CpuLevel> cpuLevelCap() {
  const char *cap = std::getenv("MODELRT_CPU_ISA");
  if (!cap || !*cap || !std::strcmp(cap, "avx512"))
    return CpuLevel::Avx512;
  if (!std::strcmp(cap, "avx2"))
    return CpuLevel::Avx2;
  if (!std::strcmp(cap, "baseline"))
    return CpuLevel::Baseline;
  return errorf("MODELRT_CPU_ISA is '%s'; it takes baseline, avx2 or avx512", cap);
}

const KernelChoice &hostKernels() {
  static const KernelChoice k = [] {
    Expected<CpuLevel> cap = cpuLevelCap();
    return chooseKernels(hostCpuFeatures(), cap ? *cap : CpuLevel::Avx512);
  }();
  return k;
}

const char *cpuLevelName(CpuLevel level) {
  switch (level) {
  case CpuLevel::Avx512:
    return "avx512";
  case CpuLevel::Avx2:
    return "avx2";
  case CpuLevel::Baseline:
    break;
  }
  return "baseline";
}

std::string featureList(const CpuFeatures &f) {
  const std::pair<bool, const char *> named[] = {
      {f.sse42, "sse4_2"},         {f.avx, "avx"},           {f.avx2, "avx2"},
      {f.fma, "fma"},              {f.f16c, "f16c"},         {f.avx512f, "avx512f"},
      {f.avx512bw, "avx512bw"},    {f.avx512dq, "avx512dq"}, {f.avx512vl, "avx512vl"},
      {f.avx512cd, "avx512cd"},    {f.avx512vnni, "avx512_vnni"},
      {f.avx512bf16, "avx512_bf16"}, {f.avx512fp16, "avx512_fp16"},
      {f.amxTile, "amx_tile"},     {f.amxBf16, "amx_bf16"},  {f.amxInt8, "amx_int8"}};
  std::string out;
  for (const auto &[has, name] : named)
    if (has)
      out += (out.empty() ? "" : " ") + std::string(name);
  return out.empty() ? "none beyond SSE2" : out;
}

std::string describeCpu(const CpuFeatures &f, const KernelChoice &k) {
  std::string name = f.brand.empty() ? (f.vendor.empty() ? "unknown CPU" : f.vendor) : f.brand;
  return name + " (family " + std::to_string(f.family) + " model " + std::to_string(f.model) +
         "): " + cpuLevelName(k.level) + " kernels; features " + featureList(f);
}

} // namespace modelrt
