//===- DataLoader.cpp - Shuffled batches with augmentation and prefetch ----===//
#include "modelrt/data/DataLoader.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace modelrt {

DataLoader::DataLoader(const Dataset &data, LoaderConfig config)
    : data(data), cfg(config) {
  pos.rngState = Rng(mixSeed(cfg.seed, 0x10ade7)).state();
}

DataLoader::~DataLoader() { stopWorker(); }

Status DataLoader::validate() const {
  if (cfg.batchSize <= 0)
    return errorf("%s: batch size must be positive, got %lld", data.name.c_str(),
                  (long long)cfg.batchSize);
  if (batchesPerEpoch() == 0)
    return errorf("%s: %lld samples make no full batch of %lld (drop_last)", data.name.c_str(),
                  (long long)data.size(), (long long)cfg.batchSize);
  if ((cfg.flipProbability > 0 || cfg.cropPadding > 0) && data.inputs.rank() < 3)
    return errorf("%s: flip/crop augmentation needs image samples [H, W] or [C, H, W], got %s",
                  data.name.c_str(), shapeToString(data.sampleShape()).c_str());
  if (cfg.oneHotClasses > 0 && (data.labels.dtype() != DType::I64 || data.labels.rank() != 1))
    return errorf("%s: one-hot labels need integer class labels", data.name.c_str());
  return Status::ok();
}

int64_t DataLoader::batchesPerEpoch() const {
  int64_t n = data.size(), b = std::max<int64_t>(cfg.batchSize, 1);
  return cfg.dropLast ? n / b : (n + b - 1) / b;
}

void DataLoader::beginEpoch() {
  stopWorker();
  perm.resize(data.size());
  std::iota(perm.begin(), perm.end(), 0);
  Rng rng;
  rng.setState(pos.rngState);
  if (cfg.shuffle)
    for (int64_t i = data.size() - 1; i > 0; --i)
      std::swap(perm[i], perm[rng.below(i + 1)]);
  nextEpochState = rng.state();
  inEpoch = true;
  queue.clear();
  stopping = false;
  if (cfg.prefetch > 0)
    worker = std::thread(&DataLoader::workerLoop, this, pos.batchIndex, batchesPerEpoch());
}

void DataLoader::workerLoop(int64_t from, int64_t to) {
  for (int64_t b = from; b < to; ++b) {
    Batch batch = makeBatch(b);
    std::unique_lock<std::mutex> lock(mu);
    if (!stopping && (int64_t)queue.size() >= cfg.prefetch) {
      workerWaiting = true;
      cv.wait(lock, [&] { return stopping || !workerWaiting; });
    }
    if (stopping)
      return;
    bool wasEmpty = queue.empty();
    queue.push_back(std::move(batch));
    if (wasEmpty) // only then can the consumer be waiting
      cv.notify_all();
  }
}

void DataLoader::stopWorker() {
  if (!worker.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mu);
    stopping = true;
    cv.notify_all();
  }
  worker.join();
  queue.clear();
  workerWaiting = false;
}

int64_t prefetchDepthFor(int64_t batchBytes) {
  int64_t fit = (int64_t(8) << 20) / std::max<int64_t>(batchBytes, 1);
  return std::clamp<int64_t>(fit, 2, 8);
}

bool DataLoader::next(Batch &batch) {
  if (!inEpoch)
    beginEpoch();
  if (pos.batchIndex >= batchesPerEpoch()) {
    stopWorker();
    inEpoch = false;
    pos.epoch += 1;
    pos.batchIndex = 0;
    pos.rngState = nextEpochState;
    return false;
  }
  if (cfg.prefetch > 0) {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return !queue.empty(); });
    batch = std::move(queue.front());
    queue.pop_front();
    // Wake the sleeping worker only once the queue has drained to half.
    if (workerWaiting && (int64_t)queue.size() <= cfg.prefetch / 2) {
      workerWaiting = false;
      cv.notify_all();
    }
  } else {
    batch = makeBatch(pos.batchIndex);
  }
  pos.batchIndex += 1;
  return true;
}

Status DataLoader::restore(const LoaderPosition &position) {
  if (position.epoch < 0)
    return errorf("%s: cannot restore the loader to epoch %lld", data.name.c_str(),
                  (long long)position.epoch);
  if (position.batchIndex < 0 || position.batchIndex >= batchesPerEpoch())
    return errorf("%s: cannot restore the loader to batch %lld: outside [0, %lld)",
                  data.name.c_str(), (long long)position.batchIndex,
                  (long long)batchesPerEpoch());
  if (position.rngState == std::array<uint64_t, 4>{})
    return errorf("%s: cannot restore the loader: its RNG state is all zero", data.name.c_str());
  stopWorker();
  inEpoch = false;
  pos = position;
  return Status::ok();
}

Batch DataLoader::makeBatch(int64_t batchIndex) const {
  int64_t start = batchIndex * cfg.batchSize;
  int64_t b = std::min(cfg.batchSize, data.size() - start);
  Batch out;
  out.size = b;
  std::vector<int64_t> ishape = data.inputs.shape();
  ishape[0] = b;
  out.inputs = Tensor(DType::F32, ishape);
  int64_t per = data.sampleElements(), lper = data.labelElements();
  bool oneHot = cfg.oneHotClasses > 0;
  std::vector<int64_t> lshape = data.labels.shape();
  lshape[0] = b;
  if (oneHot)
    lshape = {b, cfg.oneHotClasses};
  out.labels = Tensor(oneHot ? DType::F32 : data.labels.dtype(), lshape);
  bool augmenting = cfg.flipProbability > 0 || cfg.cropPadding > 0;
  Rng rng(mixSeed(cfg.seed, static_cast<uint64_t>(pos.epoch), static_cast<uint64_t>(batchIndex)));
  size_t lbytes = lper * dtypeSize(data.labels.dtype());
  for (int64_t k = 0; k < b; ++k) {
    int64_t s = perm[start + k];
    float *dst = out.inputs.as<float>() + k * per;
    const float *src = data.inputs.as<float>() + s * per;
    if (augmenting)
      augment(dst, src, rng);
    else
      std::memcpy(dst, src, per * sizeof(float));
    if (oneHot)
      out.labels.as<float>()[k * cfg.oneHotClasses + data.labels.as<int64_t>()[s]] = 1.0f;
    else
      std::memcpy(static_cast<unsigned char *>(out.labels.data()) + k * lbytes,
                  static_cast<const unsigned char *>(data.labels.data()) + s * lbytes, lbytes);
  }
  return out;
}

void DataLoader::augment(float *dst, const float *src, Rng &rng) const {
  const std::vector<int64_t> &shape = data.inputs.shape();
  int64_t h = shape[shape.size() - 2], w = shape.back();
  int64_t planes = data.sampleElements() / (h * w);
  bool flip = cfg.flipProbability > 0 && rng.uniformDouble() < cfg.flipProbability;
  int64_t dy = 0, dx = 0;
  if (cfg.cropPadding > 0) {
    int64_t span = 2 * cfg.cropPadding + 1;
    dy = static_cast<int64_t>(rng.below(span)) - cfg.cropPadding;
    dx = static_cast<int64_t>(rng.below(span)) - cfg.cropPadding;
  }
  // out(y, x) = in(y + dy, x + dx) of the zero-padded image, then flipped:
  // columns [x0, x1) read inside the image, the rest are zero.
  int64_t x0 = std::max<int64_t>(0, -dx), x1 = std::min<int64_t>(w, w - dx);
  for (int64_t c = 0; c < planes; ++c)
    for (int64_t y = 0; y < h; ++y) {
      float *out = dst + (c * h + y) * w;
      int64_t sy = y + dy;
      if (sy < 0 || sy >= h || x0 >= x1) {
        std::fill(out, out + w, 0.0f);
        continue;
      }
      const float *in = src + (c * h + sy) * w + dx;
      if (!flip) {
        std::fill(out, out + x0, 0.0f);
        std::copy(in + x0, in + x1, out + x0);
        std::fill(out + x1, out + w, 0.0f);
        continue;
      }
      for (int64_t x = 0; x < x0; ++x)
        out[w - 1 - x] = 0.0f;
      for (int64_t x = x0; x < x1; ++x)
        out[w - 1 - x] = in[x];
      for (int64_t x = x1; x < w; ++x)
        out[w - 1 - x] = 0.0f;
    }
}

} // namespace modelrt
