//===- DataBench.cpp - Throughput of the runtime's data pipeline alone -----===//
//
// Decodes Fashion-MNIST (gzip IDX) once into memory, normalises it, then
// times DataLoader delivering shuffled training batches with augmentation
// (random horizontal flip p=0.5, random crop with zero padding) — no model.
//
//   bench-data [--dir DIR] [--epochs N] [--batch N] [--prefetch N] [--pad N]
//
// Prints the decode time and the sustained images/s over the epochs.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/DataLoader.h"
#include "modelrt/data/Readers.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace modelrt;

namespace {
double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The train split as a normalised F32 dataset [60000, 1, 28, 28].
Expected<Dataset> loadFashion(const std::string &dir) {
  auto images = readIdx(dir + "/train-images-idx3-ubyte.gz");
  if (!images)
    return images.status();
  auto labels = readIdx(dir + "/train-labels-idx1-ubyte.gz");
  if (!labels)
    return labels.status();
  Tensor x = images->convertTo(DType::F32);
  x.reshape({x.dim(0), 1, x.dim(1), x.dim(2)});
  auto d = makeDataset(dir, std::move(x), labels->convertTo(DType::I64));
  if (!d)
    return d.status();
  MODELRT_TRY(normalizeDataset(*d, 1.0 / 255, {0.2860}, {0.3530}));
  return d;
}
} // namespace

int main(int argc, char **argv) {
  std::string dir = "/usr/share/datasets/fashion-mnist";
  int64_t epochs = 3, batch = 64, prefetch = 2, pad = 2;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    int64_t v = std::atoll(argv[i + 1]);
    if (a == "--dir") dir = argv[i + 1];
    else if (a == "--epochs") epochs = v;
    else if (a == "--batch") batch = v;
    else if (a == "--prefetch") prefetch = v;
    else if (a == "--pad") pad = v;
    else {
      std::fprintf(stderr, "bench-data: unknown option '%s'\n", a.c_str());
      return 2;
    }
  }
  double t0 = now();
  auto data = loadFashion(dir);
  if (!data) {
    std::fprintf(stderr, "bench-data: error: %s\n", data.message().c_str());
    return 1;
  }
  double decoded = now() - t0;
  LoaderConfig lc;
  lc.batchSize = batch, lc.seed = 1;
  lc.augment = {{MODELRT_AUG_HFLIP, {0.5}}, {MODELRT_AUG_CROP, {double(pad)}}};
  lc.prefetch = prefetch;
  DataLoader loader(*data, lc);
  if (Status s = loader.validate(); !s.isOk()) {
    std::fprintf(stderr, "bench-data: error: %s\n", s.message().c_str());
    return 1;
  }
  Batch b;
  double checksum = 0;
  int64_t images = 0;
  double t1 = now();
  for (int64_t e = 0; e < epochs; ++e)
    while (loader.next(b)) {
      checksum += b.inputs.as<float>()[0] + double(b.labels.as<int64_t>()[0]);
      images += b.size;
    }
  double secs = now() - t1;
  std::printf("decode + normalise %lld images: %.3f s\n", (long long)data->size(), decoded);
  std::printf("%lld epochs, batch %lld, flip 0.5, crop padding %lld, prefetch %lld: "
              "%lld images in %.3f s = %.0f images/s (checksum %.3f)\n",
              (long long)epochs, (long long)batch, (long long)pad, (long long)prefetch,
              (long long)images, secs, images / secs, checksum);
  return 0;
}
