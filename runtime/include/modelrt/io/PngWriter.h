//===- PngWriter.h - 8-bit PNG files through libpng ----------------------===//
//
// Encodes 8-bit gray, gray+alpha, RGB or RGBA images as PNG with libpng
// (Debian's libpng16) and writes them atomically (writeFileAtomically).
// `predict --png DIR` uses it for outputs that are images (an
// autoencoder's reconstructions; docs/cli.md).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_IO_PNGWRITER_H
#define MODELRT_IO_PNGWRITER_H

#include "modelrt/core/Status.h"

#include <cstdint>
#include <string>

namespace modelrt {

/// The PNG encoding of \p height rows of \p width pixels of \p channels
/// (1 gray, 2 gray+alpha, 3 RGB, 4 RGBA) 8-bit samples each, row-major
/// and interleaved. An error for an empty or oversized image or a libpng
/// failure.
Expected<std::string> encodePng(const uint8_t *pixels, int64_t width, int64_t height,
                                int channels);

/// encodePng written atomically to \p path; errors name the path.
Status writePng(const std::string &path, const uint8_t *pixels, int64_t width, int64_t height,
                int channels);

} // namespace modelrt

#endif // MODELRT_IO_PNGWRITER_H
