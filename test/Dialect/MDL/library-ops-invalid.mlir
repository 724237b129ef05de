// RUN: modelc-opt %s -split-input-file -verify-diagnostics
// Verifier errors of the library ops (mdl.lib_*).

// Operands mix tensors and memrefs.
func.func @f(%x: tensor<2x1x5x5xf32>, %w: memref<4x1x3x3xf32>, %y: tensor<2x4x3x3xf32>) {
  // expected-error @+1 {{operands must be all tensors or all memrefs}}
  %0 = mdl.lib_conv2d %x, %w, %y : tensor<2x1x5x5xf32>, memref<4x1x3x3xf32>, tensor<2x4x3x3xf32> -> tensor<2x4x3x3xf32>
  return
}

// -----

// On tensors the op returns init.
func.func @f(%x: tensor<2x1x5x5xf32>, %w: tensor<4x1x3x3xf32>, %y: tensor<2x4x3x3xf32>) {
  // expected-error @+1 {{has a result exactly when it works on tensors}}
  mdl.lib_conv2d %x, %w, %y : tensor<2x1x5x5xf32>, tensor<4x1x3x3xf32>, tensor<2x4x3x3xf32>
  return
}

// -----

// The bias has one element per output channel: 4 here, not 3.
func.func @f(%x: tensor<?x1x5x5xf32>, %w: tensor<4x1x3x3xf32>, %b: tensor<3xf32>, %y: tensor<?x4x3x3xf32>) {
  // expected-error @+1 {{bias must have one element per output channel (4)}}
  %0 = mdl.lib_conv2d_bias %x, %w, %b, %y : tensor<?x1x5x5xf32>, tensor<4x1x3x3xf32>, tensor<3xf32>, tensor<?x4x3x3xf32> -> tensor<?x4x3x3xf32>
  return
}

// -----

// A bias is a vector.
func.func @f(%x: tensor<?x1x5x5xf32>, %w: tensor<4x1x3x3xf32>, %b: tensor<4x1xf32>, %y: tensor<?x4x3x3xf32>) {
  // expected-error @+1 {{operand #2 must be 1D tensor of 32-bit float values or 1D memref of 32-bit float values}}
  %0 = mdl.lib_conv2d_bias %x, %w, %b, %y : tensor<?x1x5x5xf32>, tensor<4x1x3x3xf32>, tensor<4x1xf32>, tensor<?x4x3x3xf32> -> tensor<?x4x3x3xf32>
  return
}

// -----

// The bias's channels checked after the convolution's: here the channels.
func.func @f(%x: tensor<?x2x5x5xf32>, %w: tensor<4x1x3x3xf32>, %b: tensor<4xf32>, %y: tensor<?x4x3x3xf32>) {
  // expected-error @+1 {{channels do not match: input 2, weight 4x1, output 4}}
  %0 = mdl.lib_conv2d_bias %x, %w, %b, %y : tensor<?x2x5x5xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>, tensor<?x4x3x3xf32> -> tensor<?x4x3x3xf32>
  return
}

// -----

// Channels: the weight reads 2, the input has 1.
func.func @f(%x: tensor<?x1x5x5xf32>, %w: tensor<4x2x3x3xf32>, %y: tensor<?x4x3x3xf32>) {
  // expected-error @+1 {{channels do not match: input 1, weight 4x2, output 4}}
  %0 = mdl.lib_conv2d %x, %w, %y : tensor<?x1x5x5xf32>, tensor<4x2x3x3xf32>, tensor<?x4x3x3xf32> -> tensor<?x4x3x3xf32>
  return
}

// -----

// The output size must follow from the window: (5 + 2 - 3) / 1 + 1 = 5.
func.func @f(%g: tensor<?x4x3x3xf32>, %w: tensor<4x1x3x3xf32>, %dx: tensor<?x1x5x5xf32>) {
  // expected-error @+1 {{output spatial size 3 does not follow from input size 5 and kernel size 3}}
  %0 = mdl.lib_conv2d_grad_input %g, %w, %dx {padding = array<i64: 1, 1>} : tensor<?x4x3x3xf32>, tensor<4x1x3x3xf32>, tensor<?x1x5x5xf32> -> tensor<?x1x5x5xf32>
  return
}

// -----

// Only the batch may be dynamic.
func.func @f(%x: tensor<?x1x?x5xf32>, %g: tensor<?x4x3x3xf32>, %w: tensor<4x1x3x3xf32>) {
  // expected-error @+1 {{only the batch size may be dynamic}}
  %0 = mdl.lib_conv2d_grad_weight %x, %g, %w : tensor<?x1x?x5xf32>, tensor<?x4x3x3xf32>, tensor<4x1x3x3xf32> -> tensor<4x1x3x3xf32>
  return
}

// -----

// Known batch sizes must agree.
func.func @f(%x: tensor<2x1x5x5xf32>, %w: tensor<4x1x3x3xf32>, %y: tensor<3x4x3x3xf32>) {
  // expected-error @+1 {{batch sizes differ: 2 and 3}}
  %0 = mdl.lib_conv2d %x, %w, %y : tensor<2x1x5x5xf32>, tensor<4x1x3x3xf32>, tensor<3x4x3x3xf32> -> tensor<3x4x3x3xf32>
  return
}

// -----

// Window attributes: two entries, stride at least 1.
func.func @f(%x: tensor<2x1x5x5xf32>, %w: tensor<4x1x3x3xf32>, %y: tensor<2x4x3x3xf32>) {
  // expected-error @+1 {{stride needs two entries of at least 1}}
  %0 = mdl.lib_conv2d %x, %w, %y {stride = array<i64: 0, 1>} : tensor<2x1x5x5xf32>, tensor<4x1x3x3xf32>, tensor<2x4x3x3xf32> -> tensor<2x4x3x3xf32>
  return
}

// -----

// Pooling: padding at most half the kernel.
func.func @f(%x: tensor<?x8x7x5xf32>, %y: tensor<?x8x9x7xf32>) {
  // expected-error @+1 {{padding must be at most half the kernel}}
  %0 = mdl.lib_max_pool2d %x, %y {kernel = array<i64: 1, 1>, stride = array<i64: 1, 1>, padding = array<i64: 1, 1>} : tensor<?x8x7x5xf32>, tensor<?x8x9x7xf32> -> tensor<?x8x9x7xf32>
  return
}

// -----

// Pooling: the output size follows from the window: (7 - 2) / 2 + 1 = 3.
func.func @f(%x: tensor<?x8x7x5xf32>, %y: tensor<?x8x4x2xf32>) {
  // expected-error @+1 {{output spatial size 4 does not follow from input size 7 and kernel size 2}}
  %0 = mdl.lib_avg_pool2d %x, %y {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x8x7x5xf32>, tensor<?x8x4x2xf32> -> tensor<?x8x4x2xf32>
  return
}

// -----

// Pooling keeps the channels.
func.func @f(%g: tensor<?x4x3x2xf32>, %dx: tensor<?x8x7x5xf32>) {
  // expected-error @+1 {{channels do not match: input 8, output 4}}
  %0 = mdl.lib_avg_pool2d_grad %g, %dx {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x4x3x2xf32>, tensor<?x8x7x5xf32> -> tensor<?x8x7x5xf32>
  return
}

// -----

// The max-pool gradient has the forward input's shape.
func.func @f(%g: tensor<?x8x3x2xf32>, %x: tensor<?x8x7x5xf32>, %dx: tensor<?x8x7x6xf32>) {
  // expected-error @+1 {{the input and its gradient differ in shape}}
  %0 = mdl.lib_max_pool2d_grad %g, %x, %dx {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>} : tensor<?x8x3x2xf32>, tensor<?x8x7x5xf32>, tensor<?x8x7x6xf32> -> tensor<?x8x7x6xf32>
  return
}

// -----

// Library ops take f32 only.
func.func @f(%x: tensor<2x1x5x5xf64>, %w: tensor<4x1x3x3xf64>, %y: tensor<2x4x3x3xf64>) {
  // expected-error @+1 {{operand #0 must be 4D tensor of 32-bit float values or 4D memref of 32-bit float values}}
  %0 = mdl.lib_conv2d %x, %w, %y : tensor<2x1x5x5xf64>, tensor<4x1x3x3xf64>, tensor<2x4x3x3xf64> -> tensor<2x4x3x3xf64>
  return
}

// -----

// The embedding gradient's rows and the table's have one width.
func.func @f(%i: tensor<?xi64>, %g: tensor<?x8xf32>, %t: tensor<100x16xf32>) {
  // expected-error @+1 {{grad rows have 8 values, table rows 16}}
  %0 = mdl.lib_embedding_grad %i, %g, %t : tensor<?xi64>, tensor<?x8xf32>, tensor<100x16xf32> -> tensor<100x16xf32>
  return
}

// -----

// One index per gradient row.
func.func @f(%i: tensor<5xi64>, %g: tensor<4x16xf32>, %t: tensor<100x16xf32>) {
  // expected-error @+1 {{5 indices for 4 gradient rows}}
  %0 = mdl.lib_embedding_grad %i, %g, %t : tensor<5xi64>, tensor<4x16xf32>, tensor<100x16xf32> -> tensor<100x16xf32>
  return
}

// -----

// The table is static.
func.func @f(%i: tensor<?xi64>, %g: tensor<?x16xf32>, %t: tensor<?x16xf32>) {
  // expected-error @+1 {{only the number of positions may be dynamic}}
  %0 = mdl.lib_embedding_grad %i, %g, %t : tensor<?xi64>, tensor<?x16xf32>, tensor<?x16xf32> -> tensor<?x16xf32>
  return
}

// -----

// Indices are integers.
func.func @f(%i: tensor<?xf32>, %g: tensor<?x16xf32>, %t: tensor<100x16xf32>) {
  // expected-error @+1 {{operand #0 must be}}
  %0 = mdl.lib_embedding_grad %i, %g, %t : tensor<?xf32>, tensor<?x16xf32>, tensor<100x16xf32> -> tensor<100x16xf32>
  return
}

// -----

// Attention's sizes beyond the batch are static.
func.func @f(%q: tensor<?x2x?x16xf32>) {
  // expected-error @+1 {{only the batch may be dynamic, operand #0 has a dynamic dimension 2}}
  %0 = mdl.lib_attention %q, %q, %q, %q : tensor<?x2x?x16xf32>, tensor<?x2x?x16xf32>, tensor<?x2x?x16xf32>, tensor<?x2x?x16xf32> -> tensor<?x2x?x16xf32>
  return
}

// -----

// The adjoint's flat destination holds B*H*(Tq + 2*Tk)*D values.
func.func @f(%q: tensor<3x2x8x16xf32>, %flat: tensor<100xf32>) {
  // expected-error @+1 {{init must hold B*H*(Tq + 2*Tk)*D values}}
  %0 = mdl.lib_attention_grad %q, %q, %q, %q, %q, %flat : tensor<3x2x8x16xf32>, tensor<3x2x8x16xf32>, tensor<3x2x8x16xf32>, tensor<3x2x8x16xf32>, tensor<3x2x8x16xf32>, tensor<100xf32> -> tensor<100xf32>
  return
}

// -----

// The output's shape is the query's.
func.func @f(%q: tensor<?x2x8x16xf32>, %k: tensor<?x2x4x16xf32>) {
  // expected-error @+1 {{operand #3 has shape ?x2x4x16, which does not fit the query's ?x2x8x16}}
  %0 = mdl.lib_attention %q, %k, %k, %k : tensor<?x2x8x16xf32>, tensor<?x2x4x16xf32>, tensor<?x2x4x16xf32>, tensor<?x2x4x16xf32> -> tensor<?x2x4x16xf32>
  return
}

// -----

// A decoding step's sizes are static.
func.func @f(%q: tensor<?x2x1x16xf32>, %c: tensor<?x2x8x16xf32>, %pos: tensor<i64>) {
  // expected-error @+1 {{sizes must be static, operand #0 is ?x2x1x16}}
  %0 = mdl.lib_attention_decode %q, %c, %c, %pos, %q : tensor<?x2x1x16xf32>, tensor<?x2x8x16xf32>, tensor<?x2x8x16xf32>, tensor<i64>, tensor<?x2x1x16xf32> -> tensor<?x2x1x16xf32>
  return
}

// -----

// The caches share the query's batch, heads and width.
func.func @f(%q: tensor<1x2x1x16xf32>, %c: tensor<1x2x8x8xf32>, %pos: tensor<i64>) {
  // expected-error @+1 {{operand #1 has shape 1x2x8x8, which does not fit the query's 1x2x1x16 and the cache's 1x2x8x8}}
  %0 = mdl.lib_attention_decode %q, %c, %c, %pos, %q : tensor<1x2x1x16xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>, tensor<i64>, tensor<1x2x1x16xf32> -> tensor<1x2x1x16xf32>
  return
}

// -----

// One query.
func.func @f(%q: tensor<1x2x3x16xf32>, %c: tensor<1x2x8x16xf32>, %pos: tensor<i64>) {
  // expected-error @+1 {{the query must hold one position, got 1x2x3x16}}
  %0 = mdl.lib_attention_decode %q, %c, %c, %pos, %q : tensor<1x2x3x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<i64>, tensor<1x2x3x16xf32> -> tensor<1x2x3x16xf32>
  return
}

// -----

// The position is a tensor on tensors, a memref on memrefs.
func.func @f(%q: memref<1x2x1x16xf32>, %c: memref<1x2x8x16xf32>, %pos: tensor<i64>) {
  // expected-error @+1 {{operands must be all tensors or all memrefs}}
  mdl.lib_attention_decode %q, %c, %c, %pos, %q : memref<1x2x1x16xf32>, memref<1x2x8x16xf32>, memref<1x2x8x16xf32>, tensor<i64>, memref<1x2x1x16xf32>
  return
}

// -----

// Packed attention's qkv holds three parts.
func.func @f(%x: tensor<?x8x2x2x16xf32>, %o: tensor<?x8x2x16xf32>) {
  // expected-error @+1 {{qkv must be BxTx3xHxD with only B dynamic}}
  %0 = mdl.lib_attention_packed %x, %o : tensor<?x8x2x2x16xf32>, tensor<?x8x2x16xf32> -> tensor<?x8x2x16xf32>
  return
}

// -----

// Packed attention's output is BxTxHxD.
func.func @f(%x: tensor<?x8x3x2x16xf32>, %o: tensor<?x2x8x16xf32>) {
  // expected-error @+1 {{operand #1 has shape ?x2x8x16, not qkv's ?x8x3x2x16 without its 3}}
  %0 = mdl.lib_attention_packed %x, %o : tensor<?x8x3x2x16xf32>, tensor<?x2x8x16xf32> -> tensor<?x2x8x16xf32>
  return
}

// -----

// The packed adjoint's destination is laid out as qkv.
func.func @f(%x: tensor<?x8x3x2x16xf32>, %o: tensor<?x8x2x16xf32>, %d: tensor<?x8x3x2x8xf32>) {
  // expected-error @+1 {{init must have qkv's shape}}
  %0 = mdl.lib_attention_packed_grad %x, %o, %o, %d : tensor<?x8x3x2x16xf32>, tensor<?x8x2x16xf32>, tensor<?x8x2x16xf32>, tensor<?x8x3x2x8xf32> -> tensor<?x8x3x2x8xf32>
  return
}
