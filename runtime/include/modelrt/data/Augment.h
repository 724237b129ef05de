//===- Augment.h - Training augmentations of image samples -----------------===//
//
// Implements the augmentations of a data block's `augment` list
// (MODELRT_AUG_* in modelrt/core/Program.h) on one sample of c planes of
// h x w floats: the kernels as pure functions of fixed parameters (a
// shift, a crop box, an angle, colour factors, an erased box), the
// sampling of those parameters as torchvision defines it, and
// applyAugmentations, which draws and applies a list in order. The
// sampling draws only from the Rng it is given, so a sample's result
// depends on that stream alone (the loader seeds one per sample).
// Not here: the choice of stream, batching, threads (DataLoader.h).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_DATA_AUGMENT_H
#define MODELRT_DATA_AUGMENT_H

#include "modelrt/core/Program.h"
#include "modelrt/core/Rng.h"
#include "modelrt/core/Status.h"
#include "modelrt/core/Tensor.h"

#include <array>
#include <optional>
#include <vector>

namespace modelrt {

/// The planes of one sample: c images of h x w, row-major.
struct ImageShape {
  int64_t c = 1, h = 0, w = 0;
  int64_t size() const { return c * h * w; }
};

/// The data's input transform per channel: input = stored * scale[c] +
/// shift[c] (one entry: every channel). Augmentations whose arguments are
/// pixels (a fill, white) map them to input units with it.
struct ChannelTransform {
  std::vector<double> scale{1.0}, shift{0.0};
  /// The input value of stored value \p v in channel \p c.
  float apply(double v, int64_t c) const {
    size_t k = scale.size() > 1 ? size_t(c) : 0;
    return float(v * scale[k] + shift[k]);
  }
};

/// A box of an image: rows [top, top + height), columns [left, left + width).
struct Box {
  int64_t top = 0, left = 0, height = 0, width = 0;
  bool operator==(const Box &o) const {
    return top == o.top && left == o.left && height == o.height && width == o.width;
  }
};

/// Mirrors every row of \p img left-right, in place.
void hflipImage(float *img, ImageShape s);
/// dst(y, x) = src(y + dy, x + dx), 0 outside \p src.
void shiftImage(float *dst, const float *src, ImageShape s, int64_t dy, int64_t dx);
/// Resizes \p box of \p src to \p dst of \p out.h x out.w (same planes) by
/// bilinear interpolation with half-pixel centres, as
/// torch.nn.functional.interpolate(mode='bilinear', align_corners=False)
/// without antialiasing.
void resizeBilinear(float *dst, ImageShape out, const float *src, ImageShape s, Box box);
/// Rotates \p src by \p degrees counter-clockwise about the image centre
/// ((w-1)/2, (h-1)/2) into \p dst, bilinear, as torchvision's rotate of a
/// tensor: with S the sample of the zero-padded image and m the weight of
/// its taps inside the image, dst = S * m + (1 - m) * fill[c] (one value per
/// plane).
void rotateImage(float *dst, const float *src, ImageShape s, double degrees, const float *fill);
/// The grey value of pixel \p i: ITU-R 601 luma of 3 planes, the plane of 1.
float greyAt(const float *img, ImageShape s, int64_t i);
/// img = clamp(f * img + (1 - f) * base) with torchvision's factor
/// definitions, on pixels whose black is \p black and white \p white:
/// brightness blends with black, contrast with the mean grey value,
/// saturation with each pixel's grey value; clamped to [black, white]
/// (either order).
void adjustBrightness(float *img, ImageShape s, double f, float black, float white);
void adjustContrast(float *img, ImageShape s, double f, float black, float white);
void adjustSaturation(float *img, ImageShape s, double f, float black, float white);
/// Sets \p box of every plane to \p value.
void eraseBox(float *img, ImageShape s, Box box, float value);

/// A rotation angle U(-degrees, degrees) (torchvision's RandomRotation).
double sampleAngle(Rng &rng, double degrees);
/// torchvision's RandomResizedCrop.get_params: 10 tries of an area in
/// scale * h * w and a log-uniform aspect ratio, then a centre crop.
Box sampleResizedCrop(Rng &rng, int64_t h, int64_t w, const double scale[2],
                      const double ratio[2]);
/// torchvision's RandomErasing.get_params after its coin (10 tries; none:
/// nothing erased).
std::optional<Box> sampleErasing(Rng &rng, int64_t h, int64_t w, const double scale[2],
                                 const double ratio[2]);

/// One colour jitter draw: the order of the three operations
/// (0 brightness, 1 contrast, 2 saturation) and their factors (1: off).
struct JitterDraw {
  std::array<int, 3> order{0, 1, 2};
  std::array<double, 3> factor{1, 1, 1};
};
/// Factors U(max(0, 1 - s), 1 + s) for each strength s > 0, in a uniform
/// random order (torchvision's ColorJitter without hue).
JitterDraw sampleJitter(Rng &rng, const double strength[3]);

/// The image shape of samples of \p sampleShape ([H, W] or [C, H, W]), or
/// an error naming \p name when \p augment cannot apply to them.
Expected<ImageShape> checkAugmentations(const std::vector<ModelrtAugment> &augment,
                                        const std::vector<int64_t> &sampleShape,
                                        const std::string &name);

/// Applies \p augment in order to one sample of input values: reads \p src,
/// writes \p dst (both s.size() floats), drawing every random parameter
/// from \p rng. Pixel arguments (fill, white) go through \p t; colour
/// jitter works on each channel's pixels, (x - black[c]) / (white[c] -
/// black[c]) in [0, 1], so a per-channel transform changes nothing of its
/// result but the units. \p scratch is resized as needed.
void applyAugmentations(const std::vector<ModelrtAugment> &augment, ImageShape s,
                        const ChannelTransform &t, float *dst, const float *src, Rng &rng,
                        std::vector<float> &scratch);

} // namespace modelrt

#endif // MODELRT_DATA_AUGMENT_H
