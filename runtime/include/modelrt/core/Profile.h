//===- Profile.h - Per-kernel and per-phase timing (`--profile`) ----------===//
//
// Declares the profiler behind `train --profile` / `eval --profile`. The
// compiler brackets every kernel of the generated code with
// modelrt_kernel_enter / modelrt_kernel_exit (compiler/lib/Pipelines/
// KernelProfile.cpp): `name` is a constant string naming the kernel
// ("train_step.k7.relu.max_pool @ cnn.model:6"), `flops` its arithmetic
// work for this call and `bytes` the size of the distinct buffers it reads
// or writes (each counted once; the roofline's traffic, Roofline.h); labels
// of backward-pass kernels end in "(backward)".
// The runtime times the phases of a run (data, step = forward + backward,
// update, evaluation) with PhaseTimer, and splits the step's kernel time
// into forward and backward by those labels. The runtime's products
// (cblas_sgemm, modelrt_gemm_bf16, the convolutions) record what they ran
// on (f32, or bf16 on a path of Bf16.h) into the kernel that called them,
// and the report rates each product kernel against the peak of that
// precision (Roofline.h's productRate). All of it costs one flag test
// when profiling is off. Single-threaded use: kernels and phases run on
// the training thread.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_CORE_PROFILE_H
#define MODELRT_CORE_PROFILE_H

#include "modelrt/core/Bf16.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

extern "C" {
/// Called by generated code before a kernel runs.
void modelrt_kernel_enter(const char *name);
/// Called by generated code after the kernel `name` ran; `flops` is its
/// arithmetic work (0 for data movement), `bytes` the size of the buffers
/// it read or wrote.
void modelrt_kernel_exit(const char *name, int64_t flops, int64_t bytes);
}

namespace modelrt {

/// The phases of a run the report separates.
enum class Phase { Data, Step, Update, Eval, Count };

/// Turns collection on or off (off by default); clears nothing.
void setProfiling(bool on);
/// True while collecting.
bool profiling();

/// Turns profiling off for its lifetime (set-up work that is not a phase:
/// steps of zeros before training or evaluation).
struct ProfilingPaused {
  bool was = profiling();
  ProfilingPaused() { setProfiling(false); }
  ~ProfilingPaused() { setProfiling(was); }
  ProfilingPaused(const ProfilingPaused &) = delete;
  ProfilingPaused &operator=(const ProfilingPaused &) = delete;
};
/// Forgets everything collected so far.
void resetProfile();

/// Records that a product of the running kernel ran in f32 (\p bf16
/// false) or in bf16 on \p path. A no-op when profiling is off.
void noteProductRun(bool bf16, Bf16Path path = Bf16Path::Emulated);

/// Adds \p seconds to \p phase.
void addPhaseTime(Phase phase, double seconds);

/// Times its own lifetime into a phase when profiling is on.
class PhaseTimer {
public:
  explicit PhaseTimer(Phase phase) : phase(phase), on(profiling()) {
    if (on)
      start = std::chrono::steady_clock::now();
  }
  ~PhaseTimer() {
    if (on)
      addPhaseTime(phase, std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count());
  }
  PhaseTimer(const PhaseTimer &) = delete;
  PhaseTimer &operator=(const PhaseTimer &) = delete;

private:
  Phase phase;
  bool on;
  std::chrono::steady_clock::time_point start;
};

/// One kernel's totals.
struct KernelStats {
  const char *name = nullptr;
  uint64_t calls = 0;
  double seconds = 0;
  double flops = 0;
  double bytes = 0; ///< buffers read or written, summed over calls
  /// What its products ran on (noteProductRun), one bit each: productRunBit.
  /// 0 for a kernel that called no product.
  unsigned productRuns = 0;
};

/// The bit of KernelStats::productRuns for an f32 product (\p bf16 false)
/// or a bf16 product on \p path.
unsigned productRunBit(bool bf16, Bf16Path path = Bf16Path::Emulated);

/// Adds one call of kernel \p name (a string that outlives the profile) that
/// took \p seconds and did \p flops on \p bytes: the GPU layer's device
/// times.
void addKernelTime(const char *name, double seconds, double flops, double bytes = 0);

/// The kernels seen so far, slowest total first.
std::vector<KernelStats> kernelStats();

/// Writes the phase table and the \p maxKernels slowest kernels (time,
/// share, calls, GFLOP/s, and for a product kernel its fraction of the
/// peak and its precision: Roofline.h's productRate) to \p f; when there are more kernels, also their
/// totals per op (gelu_grad, matmul.cblas_sgemm, ...), the largest half as
/// many.
void writeProfileReport(FILE *f, size_t maxKernels = 25);

} // namespace modelrt

#endif // MODELRT_CORE_PROFILE_H
