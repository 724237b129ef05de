//===- PngWriter.cpp - 8-bit PNG files through libpng --------------------===//
//
// Implements PngWriter.h with libpng's simplified API
// (png_image_write_to_memory): one call sizes the encoding, a second fills
// it; errors come back in png_image::message, so no setjmp is involved.
//
//===----------------------------------------------------------------------===//
#include "modelrt/io/PngWriter.h"

#include "modelrt/io/Checkpoint.h"

#include <png.h>

namespace modelrt {
namespace {

/// The simplified API's format for \p channels interleaved 8-bit samples.
bool pngFormat(int channels, png_uint_32 &format) {
  static const png_uint_32 formats[] = {PNG_FORMAT_GRAY, PNG_FORMAT_GA, PNG_FORMAT_RGB,
                                        PNG_FORMAT_RGBA};
  if (channels < 1 || channels > 4)
    return false;
  format = formats[channels - 1];
  return true;
}

/// The largest side libpng accepts (PNG_USER_WIDTH_MAX and the format's
/// 2^31 - 1 both allow more; this keeps a row's bytes within an int).
constexpr int64_t kMaxPngSide = 1 << 20;

} // namespace

Expected<std::string> encodePng(const uint8_t *pixels, int64_t width, int64_t height,
                                int channels) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!pngFormat(channels, image.format))
    return errorf("PNG: %d channels (expected 1 gray, 2 gray+alpha, 3 RGB or 4 RGBA)", channels);
  if (width < 1 || height < 1 || width > kMaxPngSide || height > kMaxPngSide)
    return errorf("PNG: a %lldx%lld image cannot be written (each side 1 to %lld)",
                  (long long)width, (long long)height, (long long)kMaxPngSide);
  image.width = png_uint_32(width), image.height = png_uint_32(height);
  png_alloc_size_t size = 0;
  if (!png_image_write_to_memory(&image, nullptr, &size, 0, pixels, 0, nullptr))
    return errorf("PNG: %s", image.message);
  std::string out(size_t(size), '\0');
  if (!png_image_write_to_memory(&image, &out[0], &size, 0, pixels, 0, nullptr))
    return errorf("PNG: %s", image.message);
  out.resize(size_t(size));
  return out;
}

Status writePng(const std::string &path, const uint8_t *pixels, int64_t width, int64_t height,
                int channels) {
  auto bytes = encodePng(pixels, width, height, channels);
  if (!bytes)
    return errorf("%s: %s", path.c_str(), bytes.message().c_str());
  return writeFileAtomically(path, *bytes);
}

} // namespace modelrt
