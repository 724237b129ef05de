// RUN: modelc-opt %s --modelc-expand-library-ops | FileCheck %s
// RUN: modelc-opt %s --modelc-expand-library-ops=keep-sum-ranks=true | FileCheck %s --check-prefix=KEEP
// modelc-expand-library-ops: the sum over the ranks of one process is its
// input (the GPU pipeline; the runtime refuses a GPU run on several ranks
// that needs it); keep-sum-ranks leaves it for the runtime call.

// CHECK-LABEL: func.func @sum
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<?x3xf64>
// CHECK-NOT: mdl.lib_sum_ranks
// CHECK: return %[[X]] : tensor<?x3xf64>
// KEEP-LABEL: func.func @sum
// KEEP: %[[S:.*]] = mdl.lib_sum_ranks %arg0, %arg1 : tensor<?x3xf64>, tensor<?x3xf64> -> tensor<?x3xf64>
// KEEP: return %[[S]]
func.func @sum(%x: tensor<?x3xf64>, %init: tensor<?x3xf64>) -> tensor<?x3xf64> {
  %0 = mdl.lib_sum_ranks %x, %init : tensor<?x3xf64>, tensor<?x3xf64> -> tensor<?x3xf64>
  return %0 : tensor<?x3xf64>
}
