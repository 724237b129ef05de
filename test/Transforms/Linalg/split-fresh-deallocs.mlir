// RUN: modelc-opt %s --modelc-split-fresh-deallocs | FileCheck %s

// A dealloc of distinct fresh allocations, freed unconditionally with
// nothing retained, becomes one memref.dealloc per buffer.
// CHECK-LABEL: func.func @fresh
// CHECK-NOT: bufferization.dealloc
// CHECK: memref.dealloc %[[A:.*]] : memref<?xf32>
// CHECK-NEXT: memref.dealloc %{{.*}} : memref<?xf32>
// CHECK-NEXT: memref.dealloc %{{.*}} : memref<4xf32>
// CHECK-NEXT: return
func.func @fresh(%n: index) {
  %true = arith.constant true
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  %c = memref.alloc() : memref<4xf32>
  bufferization.dealloc (%a, %b, %c : memref<?xf32>, memref<?xf32>, memref<4xf32>) if (%true, %true, %true)
  return
}

// Left to upstream's passes: a memref that is not an allocation of its own
// (a function argument may alias anything), a condition that is not
// constant, the same allocation twice, and a retained value.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: bufferization.dealloc
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @kept(%n: index, %arg: memref<?xf32>, %cond: i1) -> i1 {
  %true = arith.constant true
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  %c = memref.alloc(%n) : memref<?xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  bufferization.dealloc (%a, %arg : memref<?xf32>, memref<?xf32>) if (%true, %true)
  bufferization.dealloc (%b : memref<?xf32>) if (%cond)
  bufferization.dealloc (%c, %c : memref<?xf32>, memref<?xf32>) if (%true, %true)
  %r = bufferization.dealloc (%d : memref<?xf32>) if (%true) retain (%arg : memref<?xf32>)
  return %r : i1
}
