//===- CpuFeatures.h - What the CPU can do, and the kernels chosen for it --===//
//
// Declares the runtime's one reading of the CPU: its vendor, model and the
// instruction-set features that both the CPU and the operating system enable
// (cpuid, with xgetbv for the AVX, AVX-512 and AMX register state), and the
// one choice made from it: the x86 level the runtime's own loops use and the
// kernels the matrix products use. The choice depends on features only,
// never on a table of CPU models, so a CPU newer than every library still
// gets the widest kernels it supports.
//
// MODELRT_CPU_ISA=baseline|avx2|avx512 caps the level (for comparisons, and
// for executables compiled with --target-cpu for an older CPU). What it does
// not do: choose among AVX-512 kernels by CPU model, or use AMX for f32
// products (AMX multiplies bf16 and int8 only).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_CPUFEATURES_H
#define MODELRT_CORE_CPUFEATURES_H

#include "modelrt/core/Status.h"

#include <string>

namespace modelrt {

/// The features a program may use: set only when the CPU has them and the
/// operating system saves their registers.
struct CpuFeatures {
  std::string vendor; ///< "GenuineIntel", "AuthenticAMD", ...
  std::string brand;  ///< the processor's brand string, trimmed
  int family = 0, model = 0;
  bool sse3 = false, ssse3 = false, sse41 = false, sse42 = false;
  bool avx = false, fma = false, f16c = false, avx2 = false;
  bool avx512f = false, avx512dq = false, avx512cd = false, avx512bw = false,
       avx512vl = false, avx512vnni = false, avx512bf16 = false, avx512fp16 = false;
  bool amxTile = false, amxBf16 = false, amxInt8 = false;
};

/// The x86 levels the runtime's kernels are built for, narrowest first.
enum class CpuLevel { Baseline, Avx2, Avx512 };

/// What runs on a CPU: the runtime's level, and the OpenBLAS core whose
/// kernels the matrix products use (chosen here and handed to OpenBLAS, so
/// that its own table of CPU models never decides).
struct KernelChoice {
  CpuLevel level = CpuLevel::Baseline;
  /// OpenBLAS's name for the core ("Cooperlake", "SkylakeX", "Haswell",
  /// "Sandybridge", "Nehalem", "Prescott").
  const char *openblasCore = "Prescott";
};

/// Reads this CPU (cpuid and xgetbv); all false on other architectures.
CpuFeatures readCpuFeatures();

/// This CPU's features, read once (thread-safe).
const CpuFeatures &hostCpuFeatures();

/// The widest level \p f supports, at most \p cap.
CpuLevel supportedLevel(const CpuFeatures &f, CpuLevel cap = CpuLevel::Avx512);

/// The kernels for a CPU with features \p f, at most at level \p cap.
KernelChoice chooseKernels(const CpuFeatures &f, CpuLevel cap = CpuLevel::Avx512);

/// The cap MODELRT_CPU_ISA sets (Avx512, the widest, when unset). Fails on
/// any other value, naming the variable and the values it takes.
Expected<CpuLevel> cpuLevelCap();

/// chooseKernels(hostCpuFeatures(), cap) with the environment's cap (the
/// widest when MODELRT_CPU_ISA is malformed: loadBlas() reports that).
const KernelChoice &hostKernels();

/// "baseline" (SSE2), "avx2" (AVX2 + FMA) or "avx512" (AVX-512 F/BW/DQ/VL).
const char *cpuLevelName(CpuLevel level);

/// The features of \p f that decide kernels, as a short list
/// ("avx2 fma avx512f avx512bw avx512dq avx512vl avx512_bf16 amx_bf16 ...").
std::string featureList(const CpuFeatures &f);

/// One line describing the CPU and what runs on it, for `info` and
/// `--profile`: "Intel(R) Xeon(R) ... (family 6 model 207): avx512 kernels;
/// features avx2 fma avx512f ...".
std::string describeCpu(const CpuFeatures &f, const KernelChoice &k);

} // namespace modelrt

#endif // MODELRT_CORE_CPUFEATURES_H
