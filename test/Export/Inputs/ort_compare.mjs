// ort_compare.mjs - runs an ONNX model with ONNX Runtime (the npm package
// onnxruntime-node) and compares its outputs with a reference.
//
// node ort_compare.mjs ORT_MODULES MODEL.onnx INPUT.npy REFERENCE.npy
//      [--softmax] [--rtol X]
//
// INPUT.npy: f32, i64 or i32 [N, ...], fed as the model's only input. REFERENCE.npy:
// f32 [N, K], the expected outputs (`--softmax`: probabilities, compared
// with the softmax of the model's outputs over their last dimension). Per
// sample, the largest difference over the largest reference magnitude must
// be at most --rtol (default 1e-5). Prints the samples, the worst relative
// difference and whether the argmax agrees everywhere; exits 1 on a
// mismatch. ORT_MODULES is the node_modules folder holding
// onnxruntime-node (scripts/setup.sh installs it under third_party/).
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";

/// The ONNX Runtime tensor type and typed array of each .npy dtype read.
const kDtypes = { "<f4": ["float32", Float32Array], "<i8": ["int64", BigInt64Array],
                  "<i4": ["int32", Int32Array] };

/// Reads a little-endian f32, i64 or i32 .npy file: { shape, type, data }.
function readNpy(file) {
  const buf = readFileSync(file);
  const headerLen = buf.readUInt16LE(8);
  const header = buf.toString("latin1", 10, 10 + headerLen);
  const descr = header.match(/'descr': '([^']*)'/)[1];
  if (!(descr in kDtypes) || header.includes("'fortran_order': True"))
    throw new Error(`${file}: expected a C-ordered little-endian f32, i64 or i32 array`);
  const [type, Typed] = kDtypes[descr];
  const shape = header.match(/'shape': \(([^)]*)\)/)[1].split(",")
    .map((s) => s.trim()).filter((s) => s.length).map(Number);
  const start = 10 + headerLen;
  const bytes = buf.subarray(start);
  const data = new Typed(bytes.buffer.slice(
    bytes.byteOffset, bytes.byteOffset + bytes.length));
  return { shape, type, data };
}

function softmaxRows(data, k) {
  const out = new Float64Array(data.length);
  for (let r = 0; r < data.length / k; ++r) {
    let mx = -Infinity, z = 0;
    for (let j = 0; j < k; ++j) mx = Math.max(mx, data[r * k + j]);
    for (let j = 0; j < k; ++j) z += Math.exp(data[r * k + j] - mx);
    for (let j = 0; j < k; ++j) out[r * k + j] = Math.exp(data[r * k + j] - mx) / z;
  }
  return out;
}

function argmax(a, off, k) {
  let best = 0;
  for (let j = 1; j < k; ++j) if (a[off + j] > a[off + best]) best = j;
  return best;
}

const args = process.argv.slice(2);
const [modules, modelPath, inputPath, refPath] = args;
const softmax = args.includes("--softmax");
const rtolAt = args.indexOf("--rtol");
const rtol = rtolAt >= 0 ? Number(args[rtolAt + 1]) : 1e-5;
const ort = createRequire(path.join(path.resolve(modules), "x.js"))("onnxruntime-node");

const input = readNpy(inputPath), ref = readNpy(refPath);
const session = await ort.InferenceSession.create(modelPath);
const feeds = { [session.inputNames[0]]: new ort.Tensor(input.type, input.data, input.shape) };
const result = await session.run(feeds);
const out = result[session.outputNames[0]];
const n = ref.shape[0], k = ref.data.length / n;
if (out.data.length !== ref.data.length)
  throw new Error(`ONNX Runtime gave ${out.data.length} values, the reference ${ref.data.length}`);
const got = softmax ? softmaxRows(out.data, k) : out.data;
let worst = 0, sameClass = true;
for (let r = 0; r < n; ++r) {
  let diff = 0, scale = 0;
  for (let j = 0; j < k; ++j) {
    diff = Math.max(diff, Math.abs(got[r * k + j] - ref.data[r * k + j]));
    scale = Math.max(scale, Math.abs(ref.data[r * k + j]));
  }
  worst = Math.max(worst, diff / Math.max(scale, 1e-30));
  sameClass &&= argmax(got, r * k, k) === argmax(ref.data, r * k, k);
}
console.log(`onnxruntime: ${session.inputNames[0]} -> ${session.outputNames[0]} ` +
            `[${out.dims.join(", ")}], ${n} samples`);
console.log(`max relative difference ${worst.toExponential(2)} (limit ${rtol}); ` +
            `argmax ${sameClass ? "agrees" : "DIFFERS"}`);
if (!(worst <= rtol) || !sameClass) {
  console.log("MISMATCH");
  process.exit(1);
}
console.log("MATCH");
