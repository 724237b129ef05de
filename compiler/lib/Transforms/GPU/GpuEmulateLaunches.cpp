//===- GpuEmulateLaunches.cpp - GPU kernels' code run on the CPU (tests) --===//
//
// Implements `modelc-gpu-emulate-launches`, the step of the GPU emulation
// pipeline (buildGpuEmulationPipeline, GpuPipeline.cpp) that turns kernels
// into CPU loops.
// No GPU is at hand in CI, so the kernels the GPU pipeline makes are also
// run on the CPU: every `gpu.launch` (the stage right after
// convert-parallel-loops-to-gpu) becomes two nested loops, over blocks and
// over the threads of a block, around the launch's body, with the block and
// thread ids, the grid and block sizes bound to the loop indices and the
// launch operands. The kernels' own code (collapsed and tiled loops,
// guards, one-thread kernels for scalars, the polynomial math) is then
// lowered by the CPU pipeline and linked as the executable's CPU entry
// points (`modelc --debug-gpu-emulation`), so that tests can compare a
// training run of the emulated GPU code with the CPU code. What stays
// untested without a GPU: NVVM/PTX generation, the runtime's CUDA layer and
// cuBLAS.
//
//===----------------------------------------------------------------------===//
#include "modelc/Transforms/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace modelc {
#define GEN_PASS_DEF_GPUEMULATELAUNCHESPASS
#include "modelc/Transforms/GPU/Passes.h.inc"

namespace {

/// Replaces `launch` by loops over its blocks and threads (x, y, z).
void emulate(gpu::LaunchOp launch) {
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  IRMapping map;
  SmallVector<Value> bounds = {grid.x,  grid.y,  grid.z,
                               block.x, block.y, block.z};
  SmallVector<Value> ivs;
  for (Value bound : bounds) {
    auto loop = scf::ForOp::create(b, loc, zero, bound, one);
    ivs.push_back(loop.getInductionVar());
    b.setInsertionPoint(loop.getBody()->getTerminator());
  }
  gpu::KernelDim3 ids[] = {launch.getBlockIds(), launch.getThreadIds()};
  gpu::KernelDim3 sizes[] = {launch.getGridSize(), launch.getBlockSize()};
  for (int k = 0; k < 2; ++k) {
    map.map(ids[k].x, ivs[3 * k]);
    map.map(ids[k].y, ivs[3 * k + 1]);
    map.map(ids[k].z, ivs[3 * k + 2]);
    map.map(sizes[k].x, bounds[3 * k]);
    map.map(sizes[k].y, bounds[3 * k + 1]);
    map.map(sizes[k].z, bounds[3 * k + 2]);
  }
  // convert-parallel-loops-to-gpu makes single-block bodies.
  for (Operation &op : launch.getBody().front().without_terminator())
    b.clone(op, map);
  launch.erase();
}

struct GpuEmulateLaunchesPass
    : impl::GpuEmulateLaunchesPassBase<GpuEmulateLaunchesPass> {
  using GpuEmulateLaunchesPassBase::GpuEmulateLaunchesPassBase;
  void runOnOperation() final {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp op) {
      if (op.getBody().getBlocks().size() != 1) {
        op.emitError("GPU emulation: a launch body with several blocks");
        return signalPassFailure();
      }
      launches.push_back(op);
    });
    for (gpu::LaunchOp op : launches) {
      // The math of the kernels is approximated as on the GPU.
      op->getParentOfType<func::FuncOp>()->setAttr(
          "modelc.approximate", UnitAttr::get(&getContext()));
      emulate(op);
    }
  }
};

} // namespace
} // namespace modelc
