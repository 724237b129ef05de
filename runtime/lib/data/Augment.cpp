//===- Augment.cpp - Training augmentations of image samples ---------------===//
//
// The kernels, the torchvision-style parameter sampling and the list
// application of Augment.h. Interpolation is done in double precision and
// stored as float.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/Augment.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

namespace modelrt {

namespace {
constexpr double kPi = 3.14159265358979323846;

/// U(lo, hi) from one double of \p rng.
double uniformIn(Rng &rng, double lo, double hi) { return lo + (hi - lo) * rng.uniformDouble(); }

/// Python's round() (half to even) of a non-negative value, as an integer.
int64_t roundHalfEven(double v) { return static_cast<int64_t>(std::nearbyint(v)); }

/// One source coordinate of a bilinear resize (torch's
/// area_pixel_compute_source_index and guard_index_and_lambda): the first
/// index, the second (clamped to the edge) and the second's weight.
struct Tap {
  int64_t i0, i1;
  double t;
};
Tap linearTap(int64_t dst, int64_t inSize, int64_t outSize) {
  double scale = double(inSize) / double(outSize);
  double real = std::max(scale * (double(dst) + 0.5) - 0.5, 0.0);
  int64_t i0 = std::min(static_cast<int64_t>(std::floor(real)), inSize - 1);
  double t = std::clamp(real - double(i0), 0.0, 1.0);
  return {i0, i0 < inSize - 1 ? i0 + 1 : i0, t};
}

/// Sets every value of \p img to f * v + (1 - f) * base(i), clamped to
/// [black, white] (either order).
template <class BaseFn>
void blend(float *img, ImageShape s, double f, float black, float white, BaseFn base) {
  double lo = std::min(black, white), hi = std::max(black, white);
  int64_t hw = s.h * s.w;
  for (int64_t c = 0; c < s.c; ++c)
    for (int64_t i = 0; i < hw; ++i) {
      float &v = img[c * hw + i];
      v = float(std::clamp(f * double(v) + (1 - f) * base(i), lo, hi));
    }
}
} // namespace

void hflipImage(float *img, ImageShape s) {
  for (int64_t r = 0; r < s.c * s.h; ++r)
    std::reverse(img + r * s.w, img + (r + 1) * s.w);
}

void shiftImage(float *dst, const float *src, ImageShape s, int64_t dy, int64_t dx) {
  int64_t x0 = std::clamp<int64_t>(-dx, 0, s.w), x1 = std::clamp<int64_t>(s.w - dx, 0, s.w);
  for (int64_t c = 0; c < s.c; ++c)
    for (int64_t y = 0; y < s.h; ++y) {
      float *out = dst + (c * s.h + y) * s.w;
      int64_t sy = y + dy;
      std::fill(out, out + s.w, 0.0f);
      if (sy < 0 || sy >= s.h || x0 >= x1)
        continue;
      const float *in = src + (c * s.h + sy) * s.w + dx;
      std::copy(in + x0, in + x1, out + x0);
    }
}

void resizeBilinear(float *dst, ImageShape out, const float *src, ImageShape s, Box box) {
  std::vector<Tap> xs(out.w);
  for (int64_t x = 0; x < out.w; ++x)
    xs[x] = linearTap(x, box.width, out.w);
  for (int64_t y = 0; y < out.h; ++y) {
    Tap ty = linearTap(y, box.height, out.h);
    for (int64_t c = 0; c < s.c; ++c) {
      const float *r0 = src + (c * s.h + box.top + ty.i0) * s.w + box.left;
      const float *r1 = src + (c * s.h + box.top + ty.i1) * s.w + box.left;
      float *o = dst + (c * out.h + y) * out.w;
      for (int64_t x = 0; x < out.w; ++x) {
        const Tap &tx = xs[x];
        double top = (1 - tx.t) * r0[tx.i0] + tx.t * r0[tx.i1];
        double bottom = (1 - tx.t) * r1[tx.i0] + tx.t * r1[tx.i1];
        o[x] = float((1 - ty.t) * top + ty.t * bottom);
      }
    }
  }
}

void rotateImage(float *dst, const float *src, ImageShape s, double degrees, const float *fill) {
  double a = degrees * kPi / 180, cs = std::cos(a), sn = std::sin(a);
  double cx = double(s.w - 1) / 2, cy = double(s.h - 1) / 2;
  int64_t hw = s.h * s.w;
  for (int64_t y = 0; y < s.h; ++y)
    for (int64_t x = 0; x < s.w; ++x) {
      // The source of output (x, y): the inverse rotation about the centre.
      double u = double(x) - cx, v = double(y) - cy;
      double sx = cs * u - sn * v + cx, sy = sn * u + cs * v + cy;
      int64_t x0 = static_cast<int64_t>(std::floor(sx)), y0 = static_cast<int64_t>(std::floor(sy));
      double tx = sx - double(x0), ty = sy - double(y0);
      const int64_t ys[4] = {y0, y0, y0 + 1, y0 + 1}, xs[4] = {x0, x0 + 1, x0, x0 + 1};
      const double ws[4] = {(1 - ty) * (1 - tx), (1 - ty) * tx, ty * (1 - tx), ty * tx};
      double inside = 0; // torchvision's mask: the weight of the taps inside
      for (int k = 0; k < 4; ++k)
        inside += ys[k] >= 0 && ys[k] < s.h && xs[k] >= 0 && xs[k] < s.w ? ws[k] : 0;
      for (int64_t c = 0; c < s.c; ++c) {
        double sum = 0;
        for (int k = 0; k < 4; ++k)
          if (ys[k] >= 0 && ys[k] < s.h && xs[k] >= 0 && xs[k] < s.w)
            sum += ws[k] * src[c * hw + ys[k] * s.w + xs[k]];
        dst[c * hw + y * s.w + x] = float(sum * inside + (1 - inside) * fill[c]);
      }
    }
}

float greyAt(const float *img, ImageShape s, int64_t i) {
  if (s.c != 3)
    return img[i];
  int64_t hw = s.h * s.w;
  return float(0.299 * img[i] + 0.587 * img[hw + i] + 0.114 * img[2 * hw + i]);
}

void adjustBrightness(float *img, ImageShape s, double f, float black, float white) {
  blend(img, s, f, black, white, [&](int64_t) { return double(black); });
}

void adjustContrast(float *img, ImageShape s, double f, float black, float white) {
  double sum = 0;
  for (int64_t i = 0; i < s.h * s.w; ++i)
    sum += greyAt(img, s, i);
  double mean = sum / double(s.h * s.w);
  blend(img, s, f, black, white, [&](int64_t) { return mean; });
}

void adjustSaturation(float *img, ImageShape s, double f, float black, float white) {
  std::vector<float> grey(s.h * s.w);
  for (int64_t i = 0; i < s.h * s.w; ++i)
    grey[i] = greyAt(img, s, i);
  blend(img, s, f, black, white, [&](int64_t i) { return double(grey[i]); });
}

void eraseBox(float *img, ImageShape s, Box box, float value) {
  for (int64_t c = 0; c < s.c; ++c)
    for (int64_t y = box.top; y < box.top + box.height; ++y) {
      float *row = img + (c * s.h + y) * s.w + box.left;
      std::fill(row, row + box.width, value);
    }
}

double sampleAngle(Rng &rng, double degrees) { return uniformIn(rng, -degrees, degrees); }

/// One try of torchvision's box sampling: an area of `area` times a
/// uniform draw from \p scale, an aspect ratio log-uniform in
/// [logLo, logHi]; returns (round(sqrt(t * a)), round(sqrt(t / a))).
static std::pair<int64_t, int64_t> drawSides(Rng &rng, double area, const double scale[2],
                                             double logLo, double logHi) {
  double target = area * uniformIn(rng, scale[0], scale[1]);
  double aspect = std::exp(uniformIn(rng, logLo, logHi));
  return {roundHalfEven(std::sqrt(target * aspect)), roundHalfEven(std::sqrt(target / aspect))};
}

Box sampleResizedCrop(Rng &rng, int64_t h, int64_t w, const double scale[2],
                      const double ratio[2]) {
  double area = double(h) * double(w);
  double logLo = std::log(ratio[0]), logHi = std::log(ratio[1]);
  for (int tries = 0; tries < 10; ++tries) {
    auto [cw, ch] = drawSides(rng, area, scale, logLo, logHi);
    if (cw > 0 && cw <= w && ch > 0 && ch <= h) {
      int64_t top = int64_t(rng.below(uint64_t(h - ch + 1)));
      int64_t left = int64_t(rng.below(uint64_t(w - cw + 1)));
      return {top, left, ch, cw};
    }
  }
  double inRatio = double(w) / double(h);
  int64_t cw = w, ch = h;
  if (inRatio < ratio[0])
    ch = roundHalfEven(double(w) / ratio[0]);
  else if (inRatio > ratio[1])
    cw = roundHalfEven(double(h) * ratio[1]);
  // An extreme ratio rounds a side to 0 (torchvision then fails to resize
  // an empty crop): keep at least one pixel.
  ch = std::clamp<int64_t>(ch, 1, h), cw = std::clamp<int64_t>(cw, 1, w);
  return {(h - ch) / 2, (w - cw) / 2, ch, cw};
}

std::optional<Box> sampleErasing(Rng &rng, int64_t h, int64_t w, const double scale[2],
                                 const double ratio[2]) {
  double area = double(h) * double(w);
  double logLo = std::log(ratio[0]), logHi = std::log(ratio[1]);
  for (int tries = 0; tries < 10; ++tries) {
    auto [eh, ew] = drawSides(rng, area, scale, logLo, logHi);
    if (!(eh < h && ew < w))
      continue;
    int64_t top = int64_t(rng.below(uint64_t(h - eh + 1)));
    int64_t left = int64_t(rng.below(uint64_t(w - ew + 1)));
    return Box{top, left, eh, ew};
  }
  return std::nullopt;
}

JitterDraw sampleJitter(Rng &rng, const double strength[3]) {
  JitterDraw d;
  for (int i = 2; i > 0; --i)
    std::swap(d.order[i], d.order[rng.below(uint64_t(i + 1))]);
  for (int k = 0; k < 3; ++k)
    if (strength[k] > 0)
      d.factor[k] = uniformIn(rng, std::max(0.0, 1 - strength[k]), 1 + strength[k]);
  return d;
}

Expected<ImageShape> checkAugmentations(const std::vector<ModelrtAugment> &augment,
                                        const std::vector<int64_t> &sampleShape,
                                        const std::string &name) {
  size_t r = sampleShape.size();
  if (augment.empty())
    return ImageShape{};
  if (r != 2 && r != 3)
    return errorf("%s: augmentation needs image samples [H, W] or [C, H, W], got %s",
                  name.c_str(), shapeToString(sampleShape).c_str());
  ImageShape s{r == 3 ? sampleShape[0] : 1, sampleShape[r - 2], sampleShape[r - 1]};
  for (const ModelrtAugment &a : augment) {
    if (a.kind < MODELRT_AUG_HFLIP || a.kind > MODELRT_AUG_ERASING)
      return errorf("%s: unknown augmentation kind %d", name.c_str(), int(a.kind));
    if (a.kind == MODELRT_AUG_COLOR_JITTER && a.args[2] > 0 && s.c != 3)
      return errorf("%s: color_jitter's saturation needs RGB samples [3, H, W], got %s",
                    name.c_str(), shapeToString(sampleShape).c_str());
    if (a.kind == MODELRT_AUG_COLOR_JITTER && a.args[1] > 0 && s.c != 1 && s.c != 3)
      return errorf("%s: color_jitter's contrast needs 1 or 3 channels, got %s", name.c_str(),
                    shapeToString(sampleShape).c_str());
  }
  return s;
}

namespace {
/// Maps every plane c of \p img from input units to pixels in [0, 1]
/// (\p toPixels) or back: black is t(0), white t(white).
void convertPixels(float *img, ImageShape s, const ChannelTransform &t, double white,
                   bool toPixels) {
  int64_t hw = s.h * s.w;
  for (int64_t c = 0; c < s.c; ++c) {
    double black = t.apply(0, c), span = double(t.apply(white, c)) - black;
    if (span == 0)
      continue;
    for (float *v = img + c * hw; v != img + (c + 1) * hw; ++v)
      *v = float(toPixels ? (*v - black) / span : black + *v * span);
  }
}

/// Applies the colour jitter of \p a to \p img with one draw of \p rng,
/// on pixels in [0, 1].
void applyJitter(const ModelrtAugment &a, ImageShape s, const ChannelTransform &t, float *img,
                 Rng &rng) {
  JitterDraw d = sampleJitter(rng, a.args);
  convertPixels(img, s, t, a.args[3], true);
  for (int op : d.order) {
    if (a.args[op] <= 0)
      continue;
    if (op == 0)
      adjustBrightness(img, s, d.factor[0], 0.0f, 1.0f);
    else if (op == 1)
      adjustContrast(img, s, d.factor[1], 0.0f, 1.0f);
    else
      adjustSaturation(img, s, d.factor[2], 0.0f, 1.0f);
  }
  convertPixels(img, s, t, a.args[3], false);
}

/// Applies one augmentation to \p img in place (\p scratch: a copy's room).
void applyOne(const ModelrtAugment &a, ImageShape s, const ChannelTransform &t, float *img,
              Rng &rng, std::vector<float> &scratch) {
  auto copyToScratch = [&] {
    scratch.assign(img, img + s.size());
    return scratch.data();
  };
  switch (a.kind) {
  case MODELRT_AUG_HFLIP:
    if (rng.uniformDouble() < a.args[0])
      hflipImage(img, s);
    return;
  case MODELRT_AUG_CROP: {
    int64_t pad = int64_t(a.args[0]), span = 2 * pad + 1;
    int64_t dy = int64_t(rng.below(uint64_t(span))) - pad;
    int64_t dx = int64_t(rng.below(uint64_t(span))) - pad;
    shiftImage(img, copyToScratch(), s, dy, dx);
    return;
  }
  case MODELRT_AUG_RESIZED_CROP: {
    Box box = sampleResizedCrop(rng, s.h, s.w, a.args, a.args + 2);
    resizeBilinear(img, s, copyToScratch(), s, box);
    return;
  }
  case MODELRT_AUG_ROTATION: {
    std::vector<float> fill(size_t(s.c));
    for (int64_t c = 0; c < s.c; ++c)
      fill[c] = t.apply(a.args[1], c);
    rotateImage(img, copyToScratch(), s, sampleAngle(rng, a.args[0]), fill.data());
    return;
  }
  case MODELRT_AUG_COLOR_JITTER:
    applyJitter(a, s, t, img, rng);
    return;
  case MODELRT_AUG_ERASING:
    if (rng.uniformDouble() < a.args[0])
      if (std::optional<Box> box = sampleErasing(rng, s.h, s.w, a.args + 1, a.args + 3))
        eraseBox(img, s, *box, float(a.args[5]));
    return;
  }
}
} // namespace

void applyAugmentations(const std::vector<ModelrtAugment> &augment, ImageShape s,
                        const ChannelTransform &t, float *dst, const float *src, Rng &rng,
                        std::vector<float> &scratch) {
  std::memcpy(dst, src, size_t(s.size()) * sizeof(float));
  for (const ModelrtAugment &a : augment)
    applyOne(a, s, t, dst, rng, scratch);
}

} // namespace modelrt
