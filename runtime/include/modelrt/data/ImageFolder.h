//===- ImageFolder.h - Image-folder data sets and image geometry ---------===//
//
// Implements the `images(dir)` data source at run time: the folder is
// listed with the rule the compiler used (modelsupport/Image.h: one
// subfolder per class, sorted; the files in each sorted by name), every
// image decoded (readImage), brought to the program's channels, resized and
// centre-cropped as configured, and stacked as U8 [N, C, H, W] with I64
// class labels. Also the per-image operations, shared with `predict`:
//  * channels: grey -> RGB by replication; RGB -> grey by ITU-R BT.601 luma,
//    round(0.299 R + 0.587 G + 0.114 B);
//  * resize: bilinear with half-pixel centres and no antialiasing (PyTorch's
//    interpolate(mode="bilinear", align_corners=False)), rounded to u8;
//  * centre crop: the top-left corner at ((H - h) / 2, (W - w) / 2),
//    rounded down.
// It does not cache decoded images or decode lazily: the whole set is
// decoded when it loads.
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_DATA_IMAGEFOLDER_H
#define MODELRT_DATA_IMAGEFOLDER_H

#include "modelrt/core/Program.h"
#include "modelrt/data/Dataset.h"

#include <string>
#include <vector>

namespace modelrt {

/// How the images of a folder become samples.
struct ImageFolderSpec {
  /// The class names the program was compiled with (the folder must have
  /// exactly these class folders).
  std::vector<std::string> classNames;
  /// The sample: [channels, height, width].
  int64_t channels = 0, height = 0, width = 0;
  /// Resize every image to resizeHeight x resizeWidth first (0: no resize).
  int64_t resizeHeight = 0, resizeWidth = 0;
  /// Then cut the centre height x width out (else the size must be it).
  bool centerCrop = false;
};

/// The spec of \p program's image folders (its input [C, H, W], class
/// names, resize and centre crop).
ImageFolderSpec imageFolderSpec(const ModelrtProgram &program);

/// U8 image [C, H, W] with \p channels (1 or 3) by the rule above.
Tensor convertChannels(const Tensor &image, int64_t channels);
/// U8 image [C, H, W] resized to [C, \p height, \p width] (bilinear).
Tensor resizeBilinear(const Tensor &image, int64_t height, int64_t width);
/// The centre \p height x \p width of U8 image [C, H, W] (H >= height,
/// W >= width).
Tensor centerCrop(const Tensor &image, int64_t height, int64_t width);

/// Decodes one image file and brings it to \p spec's sample (also what
/// `predict` does with an image for an image-folder program); errors name
/// the file.
Expected<Tensor> loadFolderImage(const std::string &path, const ImageFolderSpec &spec);

/// Reads image folder \p dir as a data set: inputs U8 [N, C, H, W], labels
/// I64 class indices. Errors name the folder or the file.
Expected<Dataset> readImageFolder(const std::string &dir, const ImageFolderSpec &spec);

} // namespace modelrt

#endif // MODELRT_DATA_IMAGEFOLDER_H
