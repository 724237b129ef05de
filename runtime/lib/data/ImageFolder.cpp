//===- ImageFolder.cpp - Image-folder data sets ---------------------------===//
//
// Implements ImageFolder.h: lists the folder (modelsupport/Image.h), checks
// its classes against the compiled ones, decodes each image (on every usable
// core, each into its own slot) and brings it to the sample's channels and
// size (conversion, bilinear resize, centre crop), then stacks the samples
// with their class labels.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/ImageFolder.h"

#include "modelrt/core/Parallel.h"
#include "modelrt/data/Readers.h"
#include "modelsupport/Image.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <thread>

namespace modelrt {

ImageFolderSpec imageFolderSpec(const ModelrtProgram &p) {
  ImageFolderSpec spec;
  if (p.num_class_names > 0 && p.class_names)
    spec.classNames.assign(p.class_names, p.class_names + p.num_class_names);
  if (p.input_rank == 3)
    spec.channels = p.input_shape[0], spec.height = p.input_shape[1],
    spec.width = p.input_shape[2];
  spec.resizeHeight = p.config.data.resize_height;
  spec.resizeWidth = p.config.data.resize_width;
  spec.centerCrop = p.config.data.center_crop != 0;
  return spec;
}

Tensor convertChannels(const Tensor &image, int64_t channels) {
  int64_t c = image.dim(0), hw = image.dim(1) * image.dim(2);
  assert((c == 1 || c == 3) && (channels == 1 || channels == 3) &&
         "the decoders give grey or RGB");
  if (c == channels)
    return image;
  Tensor out(DType::U8, {channels, image.dim(1), image.dim(2)});
  const unsigned char *in = image.as<unsigned char>();
  unsigned char *o = out.as<unsigned char>();
  for (int64_t i = 0; i < hw; ++i) {
    if (channels == 1) // ITU-R BT.601 luma, rounded
      o[i] = static_cast<unsigned char>(
          (299 * in[i] + 587 * in[hw + i] + 114 * in[2 * hw + i] + 500) / 1000);
    else
      for (int64_t k = 0; k < channels; ++k)
        o[k * hw + i] = in[i];
  }
  return out;
}

namespace {
/// The source index and weight of output coordinate \p i for bilinear
/// resizing from \p in to \p out samples with half-pixel centres.
void sourceOf(int64_t i, int64_t in, int64_t out, int64_t &i0, int64_t &i1, double &t) {
  double s = std::max((double(i) + 0.5) * double(in) / double(out) - 0.5, 0.0);
  i0 = std::min(int64_t(s), in - 1);
  i1 = std::min(i0 + 1, in - 1);
  t = s - double(i0);
}
} // namespace

Tensor resizeBilinear(const Tensor &image, int64_t height, int64_t width) {
  int64_t c = image.dim(0), h = image.dim(1), w = image.dim(2);
  if (h == height && w == width)
    return image;
  Tensor out(DType::U8, {c, height, width});
  const unsigned char *in = image.as<unsigned char>();
  unsigned char *o = out.as<unsigned char>();
  for (int64_t y = 0; y < height; ++y) {
    int64_t y0, y1;
    double ty;
    sourceOf(y, h, height, y0, y1, ty);
    for (int64_t x = 0; x < width; ++x) {
      int64_t x0, x1;
      double tx;
      sourceOf(x, w, width, x0, x1, tx);
      for (int64_t k = 0; k < c; ++k) {
        const unsigned char *p = in + k * h * w;
        double top = p[y0 * w + x0] * (1 - tx) + p[y0 * w + x1] * tx;
        double bottom = p[y1 * w + x0] * (1 - tx) + p[y1 * w + x1] * tx;
        double v = top * (1 - ty) + bottom * ty;
        o[(k * height + y) * width + x] = static_cast<unsigned char>(std::lround(v));
      }
    }
  }
  return out;
}

Tensor centerCrop(const Tensor &image, int64_t height, int64_t width) {
  int64_t c = image.dim(0), h = image.dim(1), w = image.dim(2);
  int64_t top = (h - height) / 2, left = (w - width) / 2;
  Tensor out(DType::U8, {c, height, width});
  const unsigned char *in = image.as<unsigned char>();
  unsigned char *o = out.as<unsigned char>();
  for (int64_t k = 0; k < c; ++k)
    for (int64_t y = 0; y < height; ++y)
      std::memcpy(o + (k * height + y) * width, in + (k * h + top + y) * w + left,
                  size_t(width));
  return out;
}

Expected<Tensor> loadFolderImage(const std::string &path, const ImageFolderSpec &spec) {
  auto img = readImage(path);
  if (!img)
    return img.status();
  Tensor t = convertChannels(*img, spec.channels);
  if (spec.resizeHeight > 0)
    t = resizeBilinear(t, spec.resizeHeight, spec.resizeWidth);
  int64_t h = t.dim(1), w = t.dim(2);
  if (spec.centerCrop && h >= spec.height && w >= spec.width)
    return centerCrop(t, spec.height, spec.width);
  if (h != spec.height || w != spec.width)
    return errorf("%s: image is %lldx%lld but the model's images are %lldx%lld (width x "
                  "height; without resize or center_crop in the data block every image must "
                  "have that size)", path.c_str(), (long long)w, (long long)h,
                  (long long)spec.width, (long long)spec.height);
  return t;
}

/// Lists \p dir and checks its class folders are \p spec's (any folders
/// when the spec has no class names: a model that ignores the labels).
static Expected<modelsupport::image::Folder> listClasses(const std::string &dir,
                                                         const ImageFolderSpec &spec) {
  modelsupport::image::Folder f;
  std::string err = modelsupport::image::listFolder(dir, f);
  if (!err.empty())
    return errorf("%s: cannot read image folder: %s", dir.c_str(), err.c_str());
  if (!spec.classNames.empty() && f.classes != spec.classNames) {
    std::string have, want;
    for (const std::string &c : f.classes)
      have += (have.empty() ? "" : ", ") + c;
    for (const std::string &c : spec.classNames)
      want += (want.empty() ? "" : ", ") + c;
    return errorf("%s: the class folders are [%s] but the model was compiled with classes "
                  "[%s]", dir.c_str(), have.c_str(), want.c_str());
  }
  return f;
}

/// Decodes \p paths[i] into sample i of \p out (\p per bytes each) on every
/// usable core: contiguous shares, each image written at its own index, so
/// the data set is the same whatever the core count. On failure, the error
/// of the first failing file in file order.
static Status decodeAll(const std::vector<const std::string *> &paths,
                        const ImageFolderSpec &spec, unsigned char *out, int64_t per) {
  int64_t n = int64_t(paths.size());
  int64_t workers = std::max<int64_t>(1, std::min<int64_t>(usableCores(), n));
  std::vector<Status> failed(size_t(workers), Status::ok());
  std::vector<int64_t> failedAt(size_t(workers), n);
  auto decodeShare = [&](int64_t w) {
    for (int64_t i = n * w / workers; i < n * (w + 1) / workers; ++i) {
      auto img = loadFolderImage(*paths[size_t(i)], spec);
      if (!img) {
        failed[size_t(w)] = img.status(), failedAt[size_t(w)] = i;
        return;
      }
      std::memcpy(out + i * per, img->as<unsigned char>(), size_t(per));
    }
  };
  std::vector<std::thread> threads;
  for (int64_t w = 1; w < workers; ++w)
    threads.emplace_back(decodeShare, w);
  decodeShare(0);
  for (std::thread &t : threads)
    t.join();
  size_t first = size_t(std::min_element(failedAt.begin(), failedAt.end()) - failedAt.begin());
  return failedAt[first] < n ? failed[first] : Status::ok();
}

Expected<Dataset> readImageFolder(const std::string &dir, const ImageFolderSpec &spec) {
  auto folder = listClasses(dir, spec);
  if (!folder)
    return folder.status();
  int64_t n = 0;
  for (const auto &files : folder->files)
    n += int64_t(files.size());
  int64_t per = spec.channels * spec.height * spec.width;
  auto bytes = checkedDataBytes({n, spec.channels, spec.height, spec.width}, 1,
                                kMaxDataBytes, dir);
  if (!bytes)
    return bytes.status();
  Tensor x(DType::U8, {n, spec.channels, spec.height, spec.width});
  Tensor y(DType::I64, {n});
  std::vector<const std::string *> paths;
  for (size_t k = 0; k < folder->files.size(); ++k)
    for (const std::string &path : folder->files[k]) {
      y.as<int64_t>()[int64_t(paths.size())] = int64_t(k);
      paths.push_back(&path);
    }
  MODELRT_TRY(decodeAll(paths, spec, x.as<unsigned char>(), per));
  return makeDataset(dir, std::move(x), std::move(y));
}

} // namespace modelrt
