// test/Conversion/Execution/Inputs/runner.cpp — runs lowered mdl functions
// on cases written by gen.py and compares them with its float64 reference.
//
// Linked (with -rdynamic -ldl) with the object compiled from the lowered
// module; looks up `_mlir_ciface_<name>` with dlsym and calls it with one
// memref-descriptor pointer per input, then one per result (caller-allocated
// out-params, docs/codegen.md). Case file (text, one tensor per line):
//   case <function> <inputs> <outputs> <tolerance>
//   in|out <f32|f64|i32|i64|i1> <rank> <sizes...> <values...>
// A float result passes when |got - want| <= tol * (1 + |want|) everywhere;
// integer and i1 results must match exactly. Prints the worst error per
// case, then "<n> cases: PASS" (exit 0) or the failures (exit 1).
#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

/// One tensor: its element type, sizes, values (as double) and storage.
struct Tensor {
  std::string dtype;
  std::vector<int64_t> sizes;
  std::vector<double> values;
  std::vector<unsigned char> storage;
  std::vector<int64_t> desc; // allocated, aligned, offset, sizes, strides

  size_t width() const {
    if (dtype == "f64" || dtype == "i64") return 8;
    if (dtype == "i1") return 1;
    return 4;
  }
  double get(size_t i) const {
    const unsigned char *p = storage.data() + i * width();
    if (dtype == "f32") { float v; memcpy(&v, p, 4); return v; }
    if (dtype == "f64") { double v; memcpy(&v, p, 8); return v; }
    if (dtype == "i32") { int32_t v; memcpy(&v, p, 4); return v; }
    if (dtype == "i64") { int64_t v; memcpy(&v, p, 8); return double(v); }
    return p[0] ? 1.0 : 0.0;
  }
  void set(size_t i, double x) {
    unsigned char *p = storage.data() + i * width();
    if (dtype == "f32") { float v = float(x); memcpy(p, &v, 4); }
    else if (dtype == "f64") memcpy(p, &x, 8);
    else if (dtype == "i32") { int32_t v = int32_t(x); memcpy(p, &v, 4); }
    else if (dtype == "i64") { int64_t v = int64_t(x); memcpy(p, &v, 8); }
    else p[0] = x != 0;
  }
  /// Allocates storage and builds the row-major descriptor.
  void *prepare(bool fill) {
    storage.assign(std::max<size_t>(values.size(), 1) * width(), 0xAB);
    if (fill)
      for (size_t i = 0; i < values.size(); ++i) set(i, values[i]);
    auto ptr = reinterpret_cast<int64_t>(storage.data());
    desc = {ptr, ptr, 0};
    desc.insert(desc.end(), sizes.begin(), sizes.end());
    std::vector<int64_t> strides(sizes.size(), 1);
    for (int d = int(sizes.size()) - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * sizes[d + 1];
    desc.insert(desc.end(), strides.begin(), strides.end());
    return desc.data();
  }
};

bool readTensor(FILE *f, const char *kind, Tensor &t) {
  char tag[8], dtype[8];
  int rank;
  if (fscanf(f, "%7s %7s %d", tag, dtype, &rank) != 3 || strcmp(tag, kind))
    return false;
  t.dtype = dtype;
  size_t count = 1;
  t.sizes.resize(rank);
  for (int64_t &s : t.sizes) {
    if (fscanf(f, "%ld", &s) != 1) return false;
    count *= s;
  }
  t.values.resize(count);
  for (double &v : t.values)
    if (fscanf(f, "%lf", &v) != 1) return false;
  return true;
}


/// Calls `fn` with the descriptor pointers (at most 16).
bool call(void *fn, std::vector<void *> &a) {
  a.resize(16, nullptr);
  reinterpret_cast<void (*)(void *, void *, void *, void *, void *, void *,
                            void *, void *, void *, void *, void *, void *,
                            void *, void *, void *, void *)>(fn)(
      a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
      a[12], a[13], a[14], a[15]);
  return true;
}

/// Runs one case; returns false if any result is off.
bool runCase(const std::string &name, std::vector<Tensor> &ins,
             std::vector<Tensor> &outs, double tol) {
  void *fn = dlsym(RTLD_DEFAULT, ("_mlir_ciface_" + name).c_str());
  if (!fn) {
    printf("%s: symbol not found\n", name.c_str());
    return false;
  }
  std::vector<void *> args;
  for (Tensor &t : ins) args.push_back(t.prepare(true));
  for (Tensor &t : outs) args.push_back(t.prepare(false));
  call(fn, args);
  double worst = 0;
  bool ok = true;
  for (Tensor &t : outs)
    for (size_t i = 0; i < t.values.size(); ++i) {
      double got = t.get(i), want = t.values[i];
      bool isFloat = t.dtype[0] == 'f';
      double err = std::fabs(got - want) / (1 + std::fabs(want));
      if (std::isnan(got) != std::isnan(want)) err = INFINITY;
      if (std::isnan(got) && std::isnan(want)) err = 0;
      if ((!isFloat && got != want) || (isFloat && !(err <= tol))) {
        if (ok)
          printf("%s: MISMATCH at element %zu: got %.9g, want %.9g\n",
                 name.c_str(), i, got, want);
        ok = false;
      }
      if (isFloat && err > worst) worst = err;
    }
  std::string shape;
  for (int64_t s : (ins.empty() ? outs : ins)[0].sizes) shape += (shape.empty() ? "" : "x") + std::to_string(s);
  printf("%s [%s] max error %.3g\n", name.c_str(), shape.c_str(), worst);
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  if (argc != 2) {
    fprintf(stderr, "usage: %s <cases>\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "r");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", argv[1]);
    return 2;
  }
  char name[256];
  int nin, nout, cases = 0, failures = 0;
  double tol;
  while (fscanf(f, " case %255s %d %d %lf", name, &nin, &nout, &tol) == 4) {
    std::vector<Tensor> ins(nin), outs(nout);
    for (Tensor &t : ins)
      if (!readTensor(f, "in", t)) { fprintf(stderr, "bad case file\n"); return 2; }
    for (Tensor &t : outs)
      if (!readTensor(f, "out", t)) { fprintf(stderr, "bad case file\n"); return 2; }
    ++cases;
    if (!runCase(name, ins, outs, tol)) ++failures;
  }
  if (!feof(f) || cases == 0) {
    fprintf(stderr, "bad case file (read %d cases)\n", cases);
    return 2;
  }
  if (failures) {
    printf("%d of %d cases: FAIL\n", failures, cases);
    return 1;
  }
  printf("%d cases: PASS\n", cases);
  return 0;
}
