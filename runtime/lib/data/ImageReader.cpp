//===- ImageReader.cpp - PNG through libpng, JPEG through libjpeg ---------===//
//
// Implements readImage/decodeImage (Readers.h): the signature picks the
// decoder (modelsupport/Image.h), which returns planar U8 [C, H, W] with the
// channel rule of that header (grey 1, colour 3, alpha dropped).
//  * PNG: every colour type and bit depth; 1/2/4-bit grey is expanded to
//    0..255, palettes to RGB, 16-bit samples scaled to 8 bits by libpng's
//    png_set_scale_16 (round(v * 255 / 65535)); interlaced images are
//    de-interlaced; alpha and tRNS transparency are ignored (the colour
//    values as stored, not composited).
//  * JPEG: grey stays grey, YCbCr/RGB become RGB; CMYK is refused. A
//    warning (corrupt or truncated entropy data, which libjpeg would fill
//    with grey) is an error.
// Both libraries report errors by longjmp: each setjmp sits in a function
// whose frame holds only C structs and pointers, so no C++ destructor is
// skipped; the messages are copied into a fixed buffer first.
//
//===----------------------------------------------------------------------===//
#include "modelrt/data/Readers.h"

#include "modelsupport/Image.h"

#include <csetjmp>
#include <cstdio>
#include <cstring>
// clang-format off
#include <png.h>
#include <jpeglib.h>
#include <jerror.h>
// clang-format on

namespace modelrt {
namespace img = modelsupport::image;

namespace {

/// The largest expansion of deflate (zlib's technical notes: 1032:1),
/// which bounds the pixels a PNG's bytes can hold.
constexpr uint64_t kMaxDeflateRatio = 1032;
/// The most output bytes one byte of a JPEG file can decode to.
constexpr uint64_t kMaxJpegRatio = 4096;

/// A decode in progress: the input bytes, the output and the first error.
struct DecodeState {
  const unsigned char *data;
  size_t size, pos;
  char message[256];
};

/// libpng's error callback: keeps the message and jumps back.
[[noreturn]] void pngError(png_structp png, png_const_charp msg) {
  auto *s = static_cast<DecodeState *>(png_get_error_ptr(png));
  std::snprintf(s->message, sizeof s->message, "%s", msg);
  png_longjmp(png, 1); // libpng's default handler would print the message
}
void pngWarning(png_structp, png_const_charp) {}

/// libpng's read callback over the bytes of DecodeState.
void pngRead(png_structp png, png_bytep out, png_size_t n) {
  auto *s = static_cast<DecodeState *>(png_get_io_ptr(png));
  if (s->size - s->pos < n)
    png_error(png, "truncated PNG: the file ends inside the image data");
  std::memcpy(out, s->data + s->pos, n);
  s->pos += n;
}

/// Reads the header and sets the transforms to 8-bit grey or RGB without
/// alpha; returns false after a libpng error.
bool pngHeader(png_structp png, png_infop info, png_uint_32 &w, png_uint_32 &h, int &channels,
               int &passes) {
  if (setjmp(png_jmpbuf(png)))
    return false;
  png_read_info(png, info);
  int type = png_get_color_type(png, info), depth = png_get_bit_depth(png, info);
  if (type == PNG_COLOR_TYPE_PALETTE)
    png_set_palette_to_rgb(png);
  if (type == PNG_COLOR_TYPE_GRAY && depth < 8)
    png_set_expand_gray_1_2_4_to_8(png);
  if (depth == 16)
    png_set_scale_16(png);
  // Alpha, and the alpha that palette_to_rgb makes from a tRNS chunk, go.
  if ((type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS))
    png_set_strip_alpha(png);
  passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  w = png_get_image_width(png, info), h = png_get_image_height(png, info);
  channels = png_get_channels(png, info);
  return true;
}

/// Reads the rows into \p rows; returns false after a libpng error.
bool pngRows(png_structp png, png_infop info, png_bytepp rows) {
  if (setjmp(png_jmpbuf(png)))
    return false;
  png_read_image(png, rows);
  png_read_end(png, nullptr);
  return true;
}

/// Interleaved 8-bit rows -> planar U8 [channels, h, w].
Tensor planar(const std::vector<unsigned char> &px, int64_t w, int64_t h, int channels) {
  Tensor t(DType::U8, {channels, h, w});
  unsigned char *o = t.as<unsigned char>();
  size_t plane = size_t(w * h);
  for (size_t i = 0; i < plane; ++i)
    for (int c = 0; c < channels; ++c)
      o[c * plane + i] = px[i * channels + c];
  return t;
}

Expected<Tensor> decodePngBytes(const std::vector<unsigned char> &b, const std::string &path) {
  DecodeState s{b.data(), b.size(), 0, "unknown error"};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &s, pngError, pngWarning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    return errorf("%s: cannot start libpng", path.c_str());
  }
  png_set_read_fn(png, &s, pngRead);
  png_set_user_limits(png, img::kMaxSide, img::kMaxSide);
  png_uint_32 w = 0, h = 0;
  int channels = 0, passes = 0;
  bool ok = pngHeader(png, info, w, h, channels, passes);
  std::vector<unsigned char> px;
  std::vector<png_bytep> rows;
  if (ok) {
    // The claimed size against what the file's bytes can hold, before
    // allocating: a raw byte holds at most 8 pixels (1-bit) of 3 channels.
    auto need = checkedDataBytes({int64_t(h), int64_t(w), channels}, 1,
                                 uint64_t(b.size()) * kMaxDeflateRatio * 24, path);
    if (!need) {
      png_destroy_read_struct(&png, &info, nullptr);
      return need.status();
    }
    px.resize(size_t(*need));
    for (png_uint_32 y = 0; y < h; ++y)
      rows.push_back(px.data() + size_t(y) * w * channels);
    ok = pngRows(png, info, rows.data());
  }
  png_destroy_read_struct(&png, &info, nullptr);
  if (!ok)
    return errorf("%s: PNG: %s", path.c_str(), s.message);
  if (channels != 1 && channels != 3)
    return errorf("%s: PNG: decodes to %d channels, not grey or RGB", path.c_str(), channels);
  return planar(px, w, h, channels);
}

/// libjpeg's error manager, with the jump target and the message.
struct JpegError {
  jpeg_error_mgr mgr;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void jpegExit(j_common_ptr cinfo) {
  auto *e = reinterpret_cast<JpegError *>(cinfo->err);
  e->mgr.format_message(cinfo, e->message);
  std::longjmp(e->jump, 1);
}

/// Warnings (level -1: corrupt data) are errors; trace messages are dropped.
void jpegMessage(j_common_ptr cinfo, int level) {
  if (level < 0)
    jpegExit(cinfo);
}

/// Reads the header and picks the output colour space; false after an error.
bool jpegHeader(jpeg_decompress_struct *cinfo, JpegError *err) {
  if (setjmp(err->jump))
    return false;
  jpeg_read_header(cinfo, TRUE);
  if (cinfo->num_components != 1 && cinfo->num_components != 3) {
    std::snprintf(err->message, sizeof err->message,
                  "unsupported JPEG: %d colour components (only grey and YCbCr/RGB; CMYK is "
                  "refused)", cinfo->num_components);
    return false;
  }
  cinfo->out_color_space = cinfo->num_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_calc_output_dimensions(cinfo);
  return true;
}

/// Decodes the scanlines into \p px (w * h * channels bytes).
bool jpegPixels(jpeg_decompress_struct *cinfo, JpegError *err, unsigned char *px) {
  if (setjmp(err->jump))
    return false;
  jpeg_start_decompress(cinfo);
  size_t stride = size_t(cinfo->output_width) * cinfo->output_components;
  while (cinfo->output_scanline < cinfo->output_height) {
    JSAMPROW row = px + cinfo->output_scanline * stride;
    jpeg_read_scanlines(cinfo, &row, 1);
  }
  jpeg_finish_decompress(cinfo);
  return true;
}

Expected<Tensor> decodeJpegBytes(const std::vector<unsigned char> &b, const std::string &path) {
  jpeg_decompress_struct cinfo;
  JpegError err;
  cinfo.err = jpeg_std_error(&err.mgr);
  err.mgr.error_exit = jpegExit;
  err.mgr.emit_message = jpegMessage;
  std::snprintf(err.message, sizeof err.message, "unknown error");
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, b.data(), static_cast<unsigned long>(b.size()));
  bool ok = jpegHeader(&cinfo, &err);
  std::vector<unsigned char> px;
  int64_t w = cinfo.output_width, h = cinfo.output_height;
  int channels = cinfo.output_components;
  if (ok && (w > img::kMaxSide || h > img::kMaxSide)) {
    std::snprintf(err.message, sizeof err.message, "unsupported image size %lldx%lld",
                  (long long)w, (long long)h);
    ok = false;
  }
  if (ok) {
    // A JPEG codes an 8x8 block of each component in at least 2 bits, so
    // one byte holds at most 4096 output bytes (4:2:0 subsampled RGB).
    auto need = checkedDataBytes({h, w, channels}, 1, uint64_t(b.size()) * kMaxJpegRatio, path);
    if (!need) {
      jpeg_destroy_decompress(&cinfo);
      return need.status();
    }
    px.resize(size_t(*need));
    ok = jpegPixels(&cinfo, &err, px.data());
  }
  jpeg_destroy_decompress(&cinfo);
  if (!ok)
    return errorf("%s: JPEG: %s", path.c_str(), err.message);
  return planar(px, w, h, channels);
}

} // namespace

Expected<Tensor> decodeImage(const std::vector<unsigned char> &bytes, const std::string &path) {
  switch (img::sniff(bytes.data(), bytes.size())) {
  case img::Kind::Png:
    return decodePngBytes(bytes, path);
  case img::Kind::Jpeg:
    return decodeJpegBytes(bytes, path);
  default:
    return errorf("%s: not a PNG or JPEG file (bad signature)", path.c_str());
  }
}

Expected<Tensor> readImage(const std::string &path) {
  auto bytes = readDataFile(path);
  if (!bytes)
    return bytes.status();
  return decodeImage(*bytes, path);
}

} // namespace modelrt
