// RUN: modelc-opt %s --modelc-copy-repeated-results | FileCheck %s
// Without this pass, buffer-results-to-out-params replaces the repeated
// allocation twice and crashes.
// RUN: modelc-opt %s --modelc-copy-repeated-results "--buffer-results-to-out-params=hoist-static-allocs=true modify-public-functions=true" --canonicalize | FileCheck %s --check-prefix=OUT

// One buffer in two result positions (a training step whose two gradients
// are one value): the repeat is returned as a fresh copy, so each result
// is its own buffer; the first occurrence and other results are kept.
// CHECK-LABEL: func.func @repeated
// CHECK: %[[A:.*]] = memref.alloc() : memref<3xf32>
// CHECK: %[[C:.*]] = memref.alloc() : memref<3xf32>
// CHECK-NEXT: memref.copy %[[A]], %[[C]] : memref<3xf32> to memref<3xf32>
// CHECK-NEXT: return %[[A]], %arg0, %[[C]] : memref<3xf32>, memref<4xf32>, memref<3xf32>
func.func @repeated(%arg0: memref<4xf32>) -> (memref<3xf32>, memref<4xf32>, memref<3xf32>) {
  %a = memref.alloc() : memref<3xf32>
  return %a, %arg0, %a : memref<3xf32>, memref<4xf32>, memref<3xf32>
}

// Out-params afterwards: each result written to its own caller buffer, the
// repeat by a copy from the first.
// OUT-LABEL: func.func @repeated(%arg0: memref<4xf32>, %arg1: memref<3xf32>, %arg2: memref<4xf32>, %arg3: memref<3xf32>)
// OUT-NOT: memref.alloc
// OUT-DAG: memref.copy %arg1, %arg3 : memref<3xf32> to memref<3xf32>
// OUT-DAG: memref.copy %arg0, %arg2 : memref<4xf32> to memref<4xf32>
// OUT-NOT: memref.alloc
// OUT: return
// OUT-LABEL: func.func @dynamic

// A dynamic size is read from the repeated buffer; three occurrences give
// two copies.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[D:.*]] = memref.dim %arg0, %c0 : memref<?x3xf32>
// CHECK: %[[C1:.*]] = memref.alloc(%[[D]]) : memref<?x3xf32>
// CHECK: memref.copy %arg0, %[[C1]]
// CHECK: %[[C2:.*]] = memref.alloc({{.*}}) : memref<?x3xf32>
// CHECK: memref.copy %arg0, %[[C2]]
// CHECK: return %arg0, %[[C1]], %[[C2]]
func.func @dynamic(%arg0: memref<?x3xf32>) -> (memref<?x3xf32>, memref<?x3xf32>, memref<?x3xf32>) {
  return %arg0, %arg0, %arg0 : memref<?x3xf32>, memref<?x3xf32>, memref<?x3xf32>
}

// Distinct results are left alone.
// CHECK-LABEL: func.func @distinct
// CHECK-NOT: memref.copy
// CHECK: return %arg0, %arg1
func.func @distinct(%arg0: memref<3xf32>, %arg1: memref<3xf32>) -> (memref<3xf32>, memref<3xf32>) {
  return %arg0, %arg1 : memref<3xf32>, memref<3xf32>
}
