// RUN: modelc-opt %s --pass-pipeline='builtin.module(modelc-parallel-kernel-calls)' --verify-diagnostics

// A part function is called with (begin, end, work, ...): a call with fewer
// operands is an internal error, reported at the call.
llvm.func @bad.part0(%b: i64) attributes {modelc.parallel_part} {
  llvm.return
}
llvm.func @bad(%n: i64) {
  // expected-error @+1 {{a parallel part takes (begin, end, work, ...), this call has 1 operands}}
  llvm.call @bad.part0(%n) : (i64) -> ()
  llvm.return
}
