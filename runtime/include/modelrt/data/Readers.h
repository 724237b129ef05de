//===- Readers.h - IDX, CSV, NPY and image readers (and an NPY writer) ----===//
//
// Implements the data-file readers. Each returns a Tensor or a Status whose
// message names the file and the place:
//  * IDX (MNIST format), plain or gzip: magic, element type, dimensions are
//    validated; a truncated file names the byte offset where data ran out.
//  * CSV with a header row: columns selected by name with declared dtypes,
//    optional label columns; a bad field names file:line:column.
//  * NPY v1/v2 (and v3 header): little-endian f4/f8/i4/i8/u1, C order.
//  * PNG and JPEG images, through libpng and libjpeg (ImageReader.cpp).
//  * Text as token ids (TextReader.cpp, modelsupport/Text.h's rules): one
//    per UTF-8 character, its index in a vocabulary, or one per byte.
// Every reader stats its path first (only regular files are read) and checks
// the element count its header claims against kMaxDataElements,
// kMaxDataBytes and the file's size before allocating (DataFile.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_DATA_READERS_H
#define MODELRT_DATA_READERS_H

#include "modelrt/core/Status.h"
#include "modelrt/core/Tensor.h"

#include <string>
#include <vector>

namespace modelrt {

/// The most elements one data file may hold (2^32).
constexpr uint64_t kMaxDataElements = uint64_t(1) << 32;
/// The most bytes one data file, or the tensor it decodes to, may hold (16 GiB).
constexpr uint64_t kMaxDataBytes = uint64_t(1) << 34;

/// Stats \p path without opening it: errors unless it is a regular file of at
/// most \p maxBytes; returns its size.
Expected<uint64_t> statDataFile(const std::string &path, uint64_t maxBytes = kMaxDataBytes);

/// The bytes of a \p shape array of \p elemSize-byte elements, computed with
/// overflow checks; errors (naming \p path and the numbers) when it exceeds
/// \p maxElements or \p maxBytes or the \p available bytes of the file.
Expected<uint64_t> checkedDataBytes(const std::vector<int64_t> &shape, uint64_t elemSize,
                                    uint64_t available, const std::string &path,
                                    uint64_t maxElements = kMaxDataElements,
                                    uint64_t maxBytes = kMaxDataBytes);

/// Reads a whole regular file (statDataFile first).
Expected<std::vector<unsigned char>> readDataFile(const std::string &path);

/// Reads a whole file, transparently gunzipping it when it is gzip data.
Expected<std::vector<unsigned char>> readFileMaybeGzip(const std::string &path);

/// Reads an IDX file (gzip or plain). u8 stays U8, i8/i16/i32 become I32,
/// f32 stays F32, f64 stays F64.
Expected<Tensor> readIdx(const std::string &path);

/// A CSV column to read and the dtype to parse it as (F32 or I64).
struct CsvColumn {
  std::string name;
  DType dtype = DType::F32;
};

/// The result of reading a CSV file: inputs N x k (F32) and the labels.
struct CsvTable {
  Tensor inputs; ///< F32, [rows, columns.size()]
  /// One label column: I64 or F32 [rows]; k > 1 columns: [rows, k]; empty
  /// when no label column was asked.
  Tensor labels;
};

/// Reads \p path (header row then one record per line, comma-separated).
/// Reads \p columns (all non-label columns when empty, as \p allDType: F32,
/// or I64 for integers, each a strict integer) and the
/// label columns \p labelColumns (none when empty), parsed as \p labelDType;
/// with \p classNames, one label column holds class names, each read as its
/// index in \p classNames (I64; a name not in the list is an error).
Expected<CsvTable> readCsv(const std::string &path,
                           const std::vector<CsvColumn> &columns,
                           const std::vector<std::string> &labelColumns,
                           DType labelDType,
                           const std::vector<std::string> &classNames = {},
                           DType allDType = DType::F32);

/// Reads a PNG (libpng: every colour type, bit depths 1 to 16, interlaced)
/// or JPEG (libjpeg: grey or colour) image, chosen by the file's signature,
/// as U8 [channels, height, width]: 1 channel for grey, 3 for colour, alpha
/// dropped, 16-bit samples scaled to round(v * 255 / 65535)
/// (modelsupport/Image.h states the channel rule). Errors name the file and
/// give the library's message.
Expected<Tensor> readImage(const std::string &path);
/// Decodes PNG or JPEG bytes; \p path is only used in messages.
Expected<Tensor> decodeImage(const std::vector<unsigned char> &bytes, const std::string &path);

/// Reads the text file \p path as I64 token ids [n]: with \p vocab (sorted
/// code points), one per UTF-8 character, its index there (invalid UTF-8 and
/// a character outside the vocabulary are errors naming the byte offset,
/// line and column); without, one per byte (ids 0..255). An empty file is
/// an error.
Expected<Tensor> readTextTokens(const std::string &path, const std::vector<uint32_t> &vocab);

/// Where an NPY file's array lies: its element type, shape and first byte.
struct NpyLayout {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  size_t dataStart = 0;
};
/// Parses the header of the \p size bytes of an NPY file at \p bytes (the
/// whole file) and checks that the data fills the rest of it exactly, with
/// the element limits given; \p path is only used in messages.
Expected<NpyLayout> parseNpyLayout(const unsigned char *bytes, size_t size,
                                   const std::string &path,
                                   uint64_t maxElements = kMaxDataElements,
                                   uint64_t maxBytes = kMaxDataBytes);

/// Reads an NPY file.
Expected<Tensor> readNpy(const std::string &path);
/// Parses NPY bytes; \p path is only used in messages.
Expected<Tensor> parseNpy(const std::vector<unsigned char> &bytes,
                          const std::string &path);
/// Writes \p tensor as an NPY v1.0 file, atomically: a failed write keeps
/// the previous file (writeFileAtomically).
Status writeNpy(const std::string &path, const Tensor &tensor);

} // namespace modelrt

#endif // MODELRT_DATA_READERS_H
