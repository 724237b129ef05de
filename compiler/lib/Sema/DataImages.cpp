//===- DataImages.cpp - Checking images(dir) splits -----------------------===//
//
// An images(dir) split is a folder with one subfolder of PNG or JPEG images
// per class (modelsupport/Image.h's folder rule: classes and files sorted by
// name). Only the headers are read: they give the sample count, the class
// names and the sample shape [C, H, W]: C is `channels = 1 | 3`, else the
// most channels among the first split's images (Data.cpp passes it on to
// the later splits); H and W come from `center_crop = [H, W]`, else
// `resize = [H, W]`, else the images' common size (differing sizes without
// either option are an error naming two files). Also the checks of those
// data-block options.
//
//===----------------------------------------------------------------------===//

#include "Config.h"

#include "modelsupport/Image.h"

#include "llvm/ADT/StringExtras.h"

using namespace modelc;
using namespace modelc::sema;
namespace img = modelsupport::image;

namespace {
/// One image and its size, for messages.
struct Sized {
  std::string path;
  int64_t w = 0, h = 0;
};

/// Checks one folder's images, reporting at the folder argument.
class ImagesChecker {
public:
  ImagesChecker(DiagnosticEngine &diags, const Expr &arg, const ImageOptions &opts)
      : diags(diags), arg(arg), opts(opts) {}
  std::optional<ImagesSplit> check(const std::string &dir);

private:
  bool fail(const llvm::Twine &msg) {
    diags.error(arg.getLoc(), msg, {arg.getRange()});
    return false;
  }
  bool checkClasses(const std::string &dir, const img::Folder &f);
  bool checkImage(const std::string &path);

  DiagnosticEngine &diags;
  const Expr &arg;
  const ImageOptions &opts;
  /// The first image.
  std::optional<Sized> first;
  int channels = 0;
};
} // namespace

static std::string sizeStr(const Sized &s) {
  return std::to_string(s.w) + "x" + std::to_string(s.h);
}

bool ImagesChecker::checkClasses(const std::string &dir, const img::Folder &f) {
  if (f.classes.size() < 2)
    return fail("image folder '" + dir + "' has " + llvm::Twine(f.classes.size()) +
                " class folder" + (f.classes.size() == 1 ? "" : "s") +
                (f.classes.empty() ? "" : " ('" + f.classes[0] + "')") +
                "; images(dir) needs one folder of images per class, at least 2");
  for (size_t k = 0; k < f.classes.size(); ++k)
    if (f.files[k].empty())
      return fail("class folder '" + dir + "/" + f.classes[k] + "' holds no images");
  return true;
}

bool ImagesChecker::checkImage(const std::string &path) {
  img::Header h;
  std::string err = img::readHeader(path, h);
  if (!err.empty())
    return fail("cannot read image '" + path + "': " + err);
  channels = std::max(channels, h.channels);
  Sized s{path, h.width, h.height};
  const std::vector<int64_t> &crop = opts.centerCrop;
  if (opts.resize.empty() && !crop.empty() && (s.h < crop[0] || s.w < crop[1]))
    return fail("'" + path + "' is " + sizeStr(s) +
                " (width x height), smaller than center_crop = [" + llvm::Twine(crop[0]) +
                ", " + llvm::Twine(crop[1]) + "]; give resize = [H, W] too");
  if (!first) {
    first = s;
    return true;
  }
  if (s.w == first->w && s.h == first->h)
    return true;
  if (!opts.resize.empty() || !opts.centerCrop.empty())
    return true;
  return fail("images differ in size: '" + first->path + "' is " + sizeStr(*first) +
              " but '" + path + "' is " + sizeStr(s) +
              " (width x height); give resize = [H, W] or center_crop = [H, W] in the "
              "data block");
}

std::optional<ImagesSplit> ImagesChecker::check(const std::string &dir) {
  img::Folder f;
  if (std::string err = img::listFolder(dir, f); !err.empty()) {
    fail("cannot read image folder '" + dir + "': " + err);
    return std::nullopt;
  }
  if (!checkClasses(dir, f))
    return std::nullopt;
  ImagesSplit out;
  out.split.format = "images";
  out.split.paths = {dir};
  out.split.numSamples = 0;
  for (const std::vector<std::string> &files : f.files)
    for (const std::string &path : files) {
      if (!checkImage(path))
        return std::nullopt;
      ++out.split.numSamples;
    }
  std::vector<int64_t> hw = {first->h, first->w};
  if (!opts.resize.empty())
    hw = opts.resize;
  if (!opts.centerCrop.empty())
    hw = opts.centerCrop;
  out.classNames = f.classes;
  out.sample = {SDim::fixed(opts.channels ? opts.channels : channels), SDim::fixed(hw[0]),
                SDim::fixed(hw[1])};
  return out;
}

/// "[H, W]" for messages.
static std::string hwStr(const std::vector<int64_t> &hw) {
  return "[" + std::to_string(hw[0]) + ", " + std::to_string(hw[1]) + "]";
}

bool sema::checkImageOption(DiagnosticEngine &diags, const Field &f, const ConstEnv &env,
                            ImageOptions &opts) {
  Value v = evalConst(diags, *f.value, env);
  if (v.isError())
    return false;
  auto fail = [&](const llvm::Twine &msg) {
    diags.error(f.value->getLoc(), msg, {f.value->getRange()});
    return false;
  };
  if (f.name == "channels") {
    if (v.kind != Value::Kind::Int || (v.i != 1 && v.i != 3))
      return fail("channels must be 1 (grey) or 3 (RGB), got " + v.describe(Graph()));
    opts.channels = v.i;
    return true;
  }
  std::vector<int64_t> hw;
  for (const Value &e : v.list)
    if (e.kind == Value::Kind::Int && e.i >= 1 && e.i <= img::kMaxSide)
      hw.push_back(e.i);
  if (v.kind != Value::Kind::List || v.list.size() != 2 || hw.size() != 2)
    return fail(f.name + " must be [height, width], two integers from 1 to 32768, got " +
                v.describe(Graph()));
  (f.name == "resize" ? opts.resize : opts.centerCrop) = hw;
  if (!opts.resize.empty() && !opts.centerCrop.empty() &&
      (opts.centerCrop[0] > opts.resize[0] || opts.centerCrop[1] > opts.resize[1]))
    return fail("center_crop = " + hwStr(opts.centerCrop) + " is larger than resize = " +
                hwStr(opts.resize));
  return true;
}

std::optional<ImagesSplit>
sema::checkImagesSplit(DiagnosticEngine &diags, const CallExpr &call, const ConstEnv &env,
                       llvm::function_ref<std::string(const Value &)> resolvePath,
                       const ImageOptions &opts) {
  if (call.getArgs().size() != 1 || call.getArgs()[0].isKeyword()) {
    diags.error(call.getLoc(), "images expects one folder: images(dir)", {call.getRange()});
    return std::nullopt;
  }
  const Expr &arg = *call.getArgs()[0].value;
  Value v = evalConst(diags, arg, env);
  if (v.isError())
    return std::nullopt;
  if (v.kind != Value::Kind::String) {
    diags.error(arg.getLoc(), "expected a folder path (a string), got " + v.describe(Graph()),
                {arg.getRange()});
    return std::nullopt;
  }
  return ImagesChecker(diags, arg, opts).check(resolvePath(v));
}
