//===- Data.cpp - Checking `data` blocks ----------------------------------===//
//
// A data block names its splits (`train`, `test`) through readers:
//   idx(images, labels)                      IDX files, gzip or plain
//   npy(inputs, labels)                      NPY arrays (C order)
//   csv(path, label=..., features=...)       a CSV table (DataCsvSplit.cpp)
//   images(dir)                              a folder of class folders of
//                                            PNG/JPEG images (DataImages.cpp)
//   text(path, seq=N, tokens=...)            a text file as next-token
//   npy(path, seq=N, vocab=V)                windows, or a 1-D NPY array of
//                                            ids (DataText.cpp)
// plus `image = <affine expression of image>` (folded to scale and shift),
// `augment = ...` (training augmentations, DataAugment.cpp),
// `validation = f` (hold out a fraction of train), `standardize = true`
// (per-feature mean/std of a CSV train file, computed here) and, for
// images, `resize = [H, W]`, `center_crop = [H, W]` and `channels = 1 | 3`.
// The splits are checked after every other field, so that they see the
// constants and the image options wherever those are written.
// Other fields bound to strings or numbers are named constants (`root`).
// Files are opened at compile time: headers give sample shapes; a label
// file of class indices gives the class count, any other the shape of its
// f32 targets. Both splits must agree on the reader, the columns, the
// sample shape and the labels. A token stream's samples are windows of
// ids, its labels the next tokens, its class count the vocabulary; it takes
// no transform or augmentation, and `validation = f` holds out the last
// fraction of its tokens.
//
//===----------------------------------------------------------------------===//

#include "Config.h"

#include "modelsupport/ShapeArith.h"
#include "modelsupport/Text.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace modelc;
using namespace modelc::sema;

namespace {
/// An affine function a * image + b during folding.
struct Affine {
  double a = 0, b = 0;
};

/// Checks one data block.
class DataChecker {
public:
  DataChecker(DiagnosticEngine &diags, llvm::StringRef baseDir)
      : diags(diags), baseDir(baseDir) {}
  std::optional<DataConfig> check(const DataDecl &decl);

private:
  std::optional<DataSplit> checkSplit(const Field &f, DataConfig &cfg);
  std::optional<DataSplit> checkArrays(const CallExpr &call, llvm::StringRef format,
                                      DataConfig &cfg);
  std::optional<DataSplit> checkCsv(const CallExpr &call, DataConfig &cfg);
  std::optional<DataSplit> checkImages(const CallExpr &call, DataConfig &cfg);
  std::optional<DataSplit> checkStream(const CallExpr &call, bool text,
                                       DataConfig &cfg);
  bool checkStreamValidation(const Expr &e, double f, DataConfig &cfg);
  bool refuseOnStream(const Field &f, const DataConfig &cfg);
  bool checkSampleFields(const DataDecl &decl, DataConfig &cfg);
  bool checkImageOption(const Field &f);
  bool setClassNames(const std::vector<std::string> &names, const CallExpr &call,
                     DataConfig &cfg);
  bool sameReader(const DataSplit &split, const CallExpr &call);
  bool setLabels(const SplitLabels &labels, llvm::SMLoc loc, DataConfig &cfg);
  bool mergeClassNames(SplitLabels &split, const CallExpr &call,
                       DataConfig &cfg);
  std::optional<Affine> foldAffine(const Expr &e);
  bool checkImage(const Expr &e, DataConfig &cfg);
  bool checkValidation(const Expr &e, DataConfig &cfg);
  bool checkStandardize(const Expr &e, const Expr *image, DataConfig &cfg);
  bool constantColumn(const Expr &e, size_t c, double value);
  std::string resolvePath(const Value &v);
  bool setSample(const Shape &shape, llvm::StringRef stored, llvm::SMLoc loc,
                 DataConfig &cfg);

  DiagnosticEngine &diags;
  std::string baseDir;
  ConstEnv env;
  /// Where the sample shape was first established.
  std::string sampleOrigin;
  /// The field being checked ("train", "test") and the first split's.
  std::string splitName, firstSplitName;
  /// The first split checked, which the others must read alike.
  std::optional<DataSplit> firstSplit;
  /// The labels of the splits checked so far, merged.
  std::optional<SplitLabels> labels;
  /// The CSV train split's table and where its features are selected
  /// (standardize reads them).
  std::optional<CsvSplit> trainCsv;
  /// The image options, and where the first of them is set.
  ImageOptions imageOpts;
  const Field *firstImageOption = nullptr;
  /// The train split of a token stream (the test split shares its
  /// vocabulary).
  std::optional<TokenSplit> trainStream;
};
} // namespace

std::string DataChecker::resolvePath(const Value &v) {
  llvm::SmallString<256> p(v.s);
  if (!llvm::sys::path::is_absolute(p)) {
    p = baseDir;
    llvm::sys::path::append(p, v.s);
  }
  llvm::sys::path::remove_dots(p, true);
  return p.str().str();
}

bool DataChecker::setSample(const Shape &shape, llvm::StringRef stored,
                            llvm::SMLoc loc, DataConfig &cfg) {
  if (sampleOrigin.empty()) {
    cfg.sampleShape = shape;
    cfg.storedType = stored.str();
    sampleOrigin = formatLoc(diags.getSourceMgr(), loc);
    return true;
  }
  if (cfg.sampleShape == shape)
    return true;
  diags.error(loc, "samples of this split have shape " + shapeStr(shape) +
                       " but the train split's have " +
                       shapeStr(cfg.sampleShape));
  return false;
}

std::string SplitLabels::describe() const {
  if (type != DType::F32)
    return "class indices (i64)";
  if (shape.empty())
    return "f32 targets (one per sample)";
  return "f32 targets of shape " + shapeStr(shape);
}

/// The file kind of an array data source ("IDX", "NPY") for messages.
static const char *arrayKind(const DataSplit &split) {
  return split.format == "npy" ? "NPY" : "IDX";
}

/// Evaluates the two paths of idx(images, labels) or npy(inputs, labels)
/// (split.format) and reads their headers into `split` and `headers`;
/// reports errors at the arguments.
static bool readArrayArgs(DiagnosticEngine &diags, const CallExpr &call,
                          const ConstEnv &env,
                          llvm::function_ref<std::string(const Value &)> resolve,
                          DataSplit &split, std::vector<IdxHeader> &headers) {
  if (call.getArgs().size() != 2 || call.getArgs()[0].isKeyword() ||
      call.getArgs()[1].isKeyword()) {
    diags.error(call.getLoc(),
                split.format == "npy" ? "npy expects two paths: npy(inputs, labels)"
                                      : "idx expects two paths: idx(images, labels)",
                {call.getRange()});
    return false;
  }
  for (const Arg &a : call.getArgs()) {
    Value v = evalConst(diags, *a.value, env);
    if (v.isError())
      return false;
    if (v.kind != Value::Kind::String) {
      diags.error(a.value->getLoc(), "expected a file path (a string), got " +
                                         v.describe(Graph()),
                  {a.value->getRange()});
      return false;
    }
    std::string path = resolve(v);
    llvm::Expected<IdxHeader> h =
        split.format == "npy" ? readNpyHeader(path) : readIdxHeader(path);
    if (!h) {
      diags.error(a.value->getLoc(),
                  llvm::Twine("cannot read ") + arrayKind(split) + " file '" + path +
                      "': " + llvm::toString(h.takeError()),
                  {a.value->getRange()});
      return false;
    }
    split.paths.push_back(path);
    headers.push_back(*h);
  }
  return true;
}

std::optional<DataSplit> DataChecker::checkArrays(const CallExpr &call,
                                                  llvm::StringRef format,
                                                  DataConfig &cfg) {
  DataSplit split;
  split.format = format.str();
  std::vector<IdxHeader> headers;
  if (!readArrayArgs(diags, call, env,
                     [&](const Value &v) { return resolvePath(v); }, split,
                     headers))
    return std::nullopt;
  const IdxHeader &img = headers[0], &lab = headers[1];
  const Expr &labArg = *call.getArgs()[1].value;
  llvm::Expected<SplitLabels> labels =
      format == "npy" ? readNpyLabels(split.paths[1], lab)
                      : readIdxLabels(split.paths[1], lab);
  if (!labels) {
    diags.error(labArg.getLoc(), "bad label file '" + split.paths[1] + "': " +
                                     llvm::toString(labels.takeError()));
    return std::nullopt;
  }
  if (img.dims.size() < 2) {
    diags.error(call.getArgs()[0].value->getLoc(),
                "'" + split.paths[0] + "' is a 1-D " + arrayKind(split) +
                    " file of " + llvm::Twine(img.dims[0]) +
                    " values, which looks like a label file; " +
                    (split.format == "npy"
                         ? "npy(inputs, labels) takes the inputs"
                         : "idx(images, labels) takes the images") +
                    " (2-D or more) first",
                {call.getArgs()[0].value->getRange()});
    return std::nullopt;
  }
  if (img.dims[0] != lab.dims[0]) {
    diags.error(call.getLoc(),
                "the inputs file holds " + llvm::Twine(img.dims[0]) +
                    " samples but the label file holds " +
                    llvm::Twine(lab.dims[0]),
                {call.getRange()});
    return std::nullopt;
  }
  // The shapes agree; an IDX file must also hold all the data they say (an
  // NPY file's length is checked with its header).
  for (size_t k = 0; k < 2 && format == "idx"; ++k)
    if (llvm::Error e = checkIdxSize(split.paths[k], headers[k])) {
      const Expr &arg = *call.getArgs()[k].value;
      diags.error(arg.getLoc(),
                  "cannot read IDX file '" + split.paths[k] +
                      "': " + llvm::toString(std::move(e)),
                  {arg.getRange()});
      return std::nullopt;
    }
  split.numSamples = img.dims[0];
  labels->noteLoc = labArg.getLoc();
  Shape sample;
  for (size_t i = 1; i < img.dims.size(); ++i)
    sample.push_back(SDim::fixed(img.dims[i]));
  if (!setSample(sample, idxTypeName(img.typeCode), call.getLoc(), cfg) ||
      !setLabels(*labels, call.getLoc(), cfg))
    return std::nullopt;
  return split;
}

/// "csv(label=[y], features=[a, b])" for messages.
static std::string readerStr(const DataSplit &s) {
  if (s.format != "csv")
    return s.format + "(...)";
  return "csv(label=[" + llvm::join(s.labelColumns, ", ") + "], features=[" +
         llvm::join(s.featureColumns, ", ") + "])";
}

/// The executable reads every split with one reader and one set of CSV
/// columns: `split` (read at `call`) must match the first split.
bool DataChecker::sameReader(const DataSplit &split, const CallExpr &call) {
  if (!firstSplit) {
    firstSplit = split;
    firstSplitName = splitName;
    return true;
  }
  if (split.format == firstSplit->format &&
      split.labelColumns == firstSplit->labelColumns &&
      split.featureColumns == firstSplit->featureColumns)
    return true;
  diags.error(call.getLoc(),
              "this split is read as " + readerStr(split) + " but the " +
                  firstSplitName + " split as " + readerStr(*firstSplit) +
                  "; every split must be read with the same reader and "
                  "columns",
              {call.getRange()});
  return false;
}

/// Merges the labels of one more split (read at `loc`) into `cfg`: the
/// splits must agree, except that one CSV label column holds class indices
/// only when every split's does.
bool DataChecker::setLabels(const SplitLabels &split, llvm::SMLoc loc,
                            DataConfig &cfg) {
  if (!labels) {
    labels = split;
  } else if (labels->oneColumn && split.oneColumn &&
             labels->type != split.type) {
    if (labels->type != DType::F32)
      labels = split;
  } else if (labels->type != split.type || labels->shape != split.shape) {
    diags.error(loc, "the labels of this split are " + split.describe() +
                         " but the " + firstSplitName + " split's are " +
                         labels->describe());
    return false;
  } else {
    labels->maxLabel = std::max(labels->maxLabel, split.maxLabel);
  }
  if (labels->type == DType::I64 &&
      labels->maxLabel >= modelsupport::kMaxTensorElements) {
    diags.error(loc, "the class labels of this split go up to " +
                         llvm::Twine(labels->maxLabel) +
                         ": more classes than a model's output can have "
                         "(at most 2^31)");
    return false;
  }
  cfg.labelType = labels->type;
  cfg.labelShape = labels->shape;
  cfg.numClasses = labels->type == DType::I64 ? labels->maxLabel + 1 : -1;
  cfg.labelNote = labels->note;
  cfg.labelNoteLoc = labels->noteLoc;
  return true;
}

/// CSV class names: the first split's names are the classes (`cfg.classNames`);
/// every label of a later split must be one of them, and is then read as
/// a name too.
bool DataChecker::mergeClassNames(SplitLabels &split, const CallExpr &call,
                                  DataConfig &cfg) {
  if (!labels) {
    if (split.named)
      cfg.classNames = split.names;
    return true;
  }
  auto fail = [&](const llvm::Twine &msg) {
    diags.error(call.getLoc(), msg, {call.getRange()});
    return false;
  };
  if (!labels->named && split.named)
    return fail(split.namePlaces[0] + " is a class name, but the " +
                firstSplitName + " split's labels are numbers");
  if (!labels->named)
    return true;
  for (size_t i = 0; i < split.names.size(); ++i)
    if (!llvm::is_contained(labels->names, split.names[i]))
      return fail(split.namePlaces[i] + " is not a class of the " +
                  firstSplitName + " split [" + llvm::join(labels->names, ", ") +
                  "]");
  split = *labels; // the first split's classes
  return true;
}

std::optional<DataSplit> DataChecker::checkCsv(const CallExpr &call,
                                               DataConfig &cfg) {
  std::optional<CsvSplit> csv = checkCsvSplit(
      diags, call, env, [&](const Value &v) { return resolvePath(v); });
  if (!csv || !sameReader(csv->split, call) ||
      !mergeClassNames(csv->labels, call, cfg) ||
      !setSample({SDim::fixed(csv->split.featureColumns.size())}, "f32",
                 call.getLoc(), cfg) ||
      !setLabels(csv->labels, call.getLoc(), cfg))
    return std::nullopt;
  DataSplit split = csv->split;
  if (splitName == "train")
    trainCsv = std::move(*csv);
  return split;
}

/// The class names of one more split (read at `call`): every split's must
/// be the first's.
bool DataChecker::setClassNames(const std::vector<std::string> &names,
                                const CallExpr &call, DataConfig &cfg) {
  if (cfg.classNames.empty() || cfg.classNames == names) {
    cfg.classNames = names;
    return true;
  }
  diags.error(call.getLoc(),
              "the class folders of this split are [" + llvm::join(names, ", ") +
                  "] but the " + firstSplitName + " split's are [" +
                  llvm::join(cfg.classNames, ", ") +
                  "]; every split must have the same classes",
              {call.getRange()});
  return false;
}

std::optional<DataSplit> DataChecker::checkImages(const CallExpr &call,
                                                  DataConfig &cfg) {
  std::optional<ImagesSplit> s = checkImagesSplit(
      diags, call, env, [&](const Value &v) { return resolvePath(v); },
      imageOpts);
  SplitLabels classes; // one class index per class folder
  if (s)
    classes.maxLabel = int64_t(s->classNames.size()) - 1;
  if (!s || !sameReader(s->split, call) ||
      !setSample(s->sample, "u8", call.getLoc(), cfg) ||
      !setClassNames(s->classNames, call, cfg) ||
      !setLabels(classes, call.getLoc(), cfg))
    return std::nullopt;
  cfg.resize = imageOpts.resize;
  cfg.centerCrop = !imageOpts.centerCrop.empty();
  // Without `channels`, the first split's images set the channels of all.
  imageOpts.channels = s->sample[0].size;
  return s->split;
}

/// A token stream: windows of `seq` ids, labelled by the next tokens, as
/// many classes as the vocabulary has ids; every split reads alike.
std::optional<DataSplit> DataChecker::checkStream(const CallExpr &call,
                                                  bool text, DataConfig &cfg) {
  auto resolve = [&](const Value &v) { return resolvePath(v); };
  const TokenSplit *train = trainStream ? &*trainStream : nullptr;
  std::optional<TokenSplit> t =
      text ? checkTextSplit(diags, call, env, resolve, train)
           : checkNpyTokens(diags, call, env, resolve);
  if (!t || !sameReader(t->split, call))
    return std::nullopt;
  if (train && t->tokens != train->tokens) {
    diags.error(call.getLoc(),
                "this split reads tokens = \"" + t->tokens + "\" but the " +
                    firstSplitName + " split tokens = \"" + train->tokens + "\"",
                {call.getRange()});
    return std::nullopt;
  }
  SplitLabels next; // the next token of each position
  next.shape = {SDim::fixed(t->seq)};
  next.maxLabel = t->vocabSize - 1;
  if (train && train->declaredVocab)
    next.maxLabel = train->vocabSize - 1;
  if (!setSample({SDim::fixed(t->seq)}, "i64", call.getLoc(), cfg) ||
      !setLabels(next, call.getLoc(), cfg))
    return std::nullopt;
  cfg.seqLen = t->seq;
  cfg.tokens = t->tokens;
  if (!train) {
    cfg.vocab = t->vocab;
    trainStream = t;
  }
  return t->split;
}

/// `validation = f` on a token stream: the last f of the tokens, both parts
/// long enough for a window; the train split's windows per epoch follow.
bool DataChecker::checkStreamValidation(const Expr &e, double f,
                                        DataConfig &cfg) {
  int64_t n = cfg.train->numTokens;
  int64_t held = int64_t(std::llround(double(n) * f));
  if (held <= cfg.seqLen || n - held <= cfg.seqLen) {
    diags.error(e.getLoc(),
                "validation = " + llvm::Twine(sema::formatNumber(f)) +
                    " of the " + llvm::Twine(n) + " tokens holds out the last " +
                    llvm::Twine(held) + ", leaving " + llvm::Twine(n - held) +
                    " for training; each part needs at least seq + 1 = " +
                    llvm::Twine(cfg.seqLen + 1) + " tokens",
                {e.getRange()});
    return false;
  }
  cfg.train->numSamples =
      modelsupport::text::epochWindows(n - held, cfg.seqLen);
  cfg.valFraction = f;
  return true;
}

/// Records where the fields that change samples (`image`, `standardize`,
/// `augment`) are set, for the train block's checks of integer inputs;
/// false after reporting them on a token stream.
bool DataChecker::checkSampleFields(const DataDecl &decl, DataConfig &cfg) {
  bool ok = true;
  for (const Field &f : decl.getFields()) {
    if (f.name == "image" || f.name == "standardize")
      cfg.transformLoc = f.nameRange.Start;
    if (f.name == "augment")
      cfg.augmentLoc = f.nameRange.Start;
    if (f.name == "image" || f.name == "standardize" || f.name == "augment")
      ok &= refuseOnStream(f, cfg);
  }
  return ok;
}

/// Fields that do not apply to the ids of a token stream.
bool DataChecker::refuseOnStream(const Field &f, const DataConfig &cfg) {
  if (cfg.seqLen == 0)
    return true;
  diags.error(f.nameRange.Start,
              "'" + f.name + "' does not apply to " + firstSplit->format +
                  "(path, seq=...) data: its samples are token ids, which "
                  "are neither transformed nor augmented",
              {f.nameRange});
  return false;
}

/// Checks an image option of the data block (DataImages.cpp).
bool DataChecker::checkImageOption(const Field &f) {
  if (!firstImageOption)
    firstImageOption = &f;
  return sema::checkImageOption(diags, f, env, imageOpts);
}

std::optional<DataSplit> DataChecker::checkSplit(const Field &f,
                                                 DataConfig &cfg) {
  const auto *call = llvm::dyn_cast<CallExpr>(f.value.get());
  const auto *fn = call ? llvm::dyn_cast<NameExpr>(&call->getCallee()) : nullptr;
  splitName = f.name;
  bool windows = llvm::any_of(call ? call->getArgs() : llvm::ArrayRef<Arg>(),
                              [](const Arg &a) { return a.keyword == "seq"; });
  if (fn && fn->getName() == "npy" && windows)
    return checkStream(*call, false, cfg);
  if (fn && (fn->getName() == "idx" || fn->getName() == "npy")) {
    std::optional<DataSplit> split = checkArrays(*call, fn->getName(), cfg);
    if (split && !sameReader(*split, *call))
      return std::nullopt;
    return split;
  }
  if (fn && fn->getName() == "csv")
    return checkCsv(*call, cfg);
  if (fn && fn->getName() == "images")
    return checkImages(*call, cfg);
  if (fn && fn->getName() == "text")
    return checkStream(*call, true, cfg);
  diags.error(f.value->getLoc(),
              "'" + f.name +
                  "' must be read with idx(images, labels), npy(inputs, "
                  "labels), csv(path, label=..., features=[...]), "
                  "images(dir), text(path, seq=N) or npy(path, seq=N)",
              {f.value->getRange()});
  return std::nullopt;
}

std::optional<Affine> DataChecker::foldAffine(const Expr &e) {
  const char *help = "the image transform must be affine in `image` (scale * "
                     "image + shift), e.g. (image / 255 - 0.2860) / 0.3530";
  auto fail = [&](const llvm::Twine &why) -> std::optional<Affine> {
    diags.error(e.getLoc(), why + "; " + help, {e.getRange()});
    return std::nullopt;
  };
  if (auto *n = llvm::dyn_cast<NameExpr>(&e)) {
    if (n->getName() == "image")
      return Affine{1, 0};
    auto it = env.find(n->getName().str());
    if (it != env.end() && it->second.isNumber())
      return Affine{0, it->second.asDouble()};
    return fail("unknown name '" + n->getName() + "' in the image transform");
  }
  if (auto *i = llvm::dyn_cast<IntLitExpr>(&e))
    return Affine{0, double(i->getValue())};
  if (auto *f = llvm::dyn_cast<FloatLitExpr>(&e))
    return Affine{0, f->getValue()};
  if (auto *u = llvm::dyn_cast<UnaryExpr>(&e)) {
    std::optional<Affine> x = foldAffine(u->getOperand());
    if (!x)
      return x;
    return Affine{-x->a, -x->b};
  }
  auto *b = llvm::dyn_cast<BinaryExpr>(&e);
  if (!b)
    return fail(llvm::isa<CallExpr>(e) || llvm::isa<PipeExpr>(e)
                    ? "function calls are not supported in the image transform"
                    : "unsupported expression in the image transform");
  std::optional<Affine> l = foldAffine(b->getLHS());
  if (!l)
    return l;
  std::optional<Affine> r = foldAffine(b->getRHS());
  if (!r)
    return r;
  switch (b->getOp()) {
  case BinaryOp::Add:
    return Affine{l->a + r->a, l->b + r->b};
  case BinaryOp::Sub:
    return Affine{l->a - r->a, l->b - r->b};
  case BinaryOp::Mul:
    if (l->a != 0 && r->a != 0)
      return fail("'image * image' is not affine");
    return Affine{l->a * r->b + r->a * l->b, l->b * r->b};
  case BinaryOp::Div:
    if (r->a != 0)
      return fail("dividing by an expression of `image` is not affine");
    if (r->b == 0)
      return fail("division by zero");
    return Affine{l->a / r->b, l->b / r->b};
  default:
    return fail("operator '" + getBinaryOpSpelling(b->getOp()) +
                "' is not affine");
  }
}

/// `image = <affine>` or `image = normalize(<affine>, mean=..., std=...)`.
bool DataChecker::checkImage(const Expr &e, DataConfig &cfg) {
  const Expr *inner = &e;
  const auto *call = llvm::dyn_cast<CallExpr>(&e);
  const auto *fn = call ? llvm::dyn_cast<NameExpr>(&call->getCallee()) : nullptr;
  bool normalize = fn && fn->getName() == "normalize";
  if (normalize && !(inner = normalizeOperand(diags, *call)))
    return false;
  std::optional<Affine> t = foldAffine(*inner);
  if (!t)
    return false;
  cfg.scale = t->a;
  cfg.shift = t->b;
  if (t->a == 0) {
    diags.error(inner->getLoc(), "the image transform does not depend on `image`");
    return false;
  }
  // Without a train split (already reported) the channels are unknown.
  return !normalize || !cfg.train || checkNormalize(diags, *call, env, cfg);
}

bool DataChecker::checkValidation(const Expr &e, DataConfig &cfg) {
  Value v = evalConst(diags, e, env);
  if (v.isError())
    return false;
  double f = v.isNumber() ? v.asDouble() : -1;
  if (!(f > 0 && f < 1)) {
    diags.error(e.getLoc(),
                "validation must be a fraction of the train split with "
                "0 < validation < 1, got " + v.describe(Graph()),
                {e.getRange()});
    return false;
  }
  if (cfg.test) {
    diags.error(e.getLoc(),
                "validation holds out part of the train split, but this data "
                "block has a test split, which is the validation set; remove "
                "one of them",
                {e.getRange()});
    return false;
  }
  if (cfg.seqLen > 0)
    return checkStreamValidation(e, f, cfg);
  int64_t n = cfg.train->numSamples;
  int64_t held = int64_t(std::llround(double(n) * f));
  if (n > 0 && (held < 1 || held >= n)) {
    diags.error(e.getLoc(),
                "validation = " + llvm::Twine(sema::formatNumber(f)) + " of the " +
                    llvm::Twine(n) + " training samples holds out " +
                    llvm::Twine(held) + ", leaving an empty part",
                {e.getRange()});
    return false;
  }
  cfg.valFraction = f;
  return true;
}

/// Reports that feature `c` of the CSV train split, which holds `value` in
/// every row, cannot be standardized (at `e`), with a note where the
/// features are selected.
bool DataChecker::constantColumn(const Expr &e, size_t c, double value) {
  const std::string &name = trainCsv->split.featureColumns[c];
  diags.error(e.getLoc(),
              "cannot standardize: column '" + name + "' of '" +
                  trainCsv->split.paths[0] + "' is constant (every row holds " +
                  formatNumber(value) +
                  ", standard deviation 0); drop it from the features, or "
                  "remove `standardize = true`",
              {e.getRange()});
  diags.note(trainCsv->featuresRange.Start,
             trainCsv->featuresGiven
                 ? "the features, '" + name + "' among them, are selected here"
                 : "without `features = ...`, every column but the label is "
                   "a feature; list the features to leave '" +
                       name + "' out",
             {trainCsv->featuresRange});
  return false;
}

bool DataChecker::checkStandardize(const Expr &e, const Expr *image,
                                   DataConfig &cfg) {
  Value v = evalConst(diags, e, env);
  if (v.isError())
    return false;
  if (v.kind != Value::Kind::Bool) {
    diags.error(e.getLoc(),
                "standardize must be true or false, got " +
                    v.describe(Graph()),
                {e.getRange()});
    return false;
  }
  if (!v.i)
    return true;
  auto fail = [&](const llvm::Twine &msg) {
    diags.error(e.getLoc(), msg, {e.getRange()});
    return false;
  };
  if (cfg.train->format != "csv")
    return fail("standardize works on the feature columns of csv(...) "
                "tables; for images use image = (image - mean) / std");
  if (image)
    return fail("standardize replaces the `image = ...` transform; use one "
                "of them");
  llvm::Expected<ColumnStats> stats =
      csvColumnStats(trainCsv->split, trainCsv->table);
  if (!stats)
    return fail("cannot standardize: " + llvm::toString(stats.takeError()));
  if (long c = firstConstantColumn(*stats); c >= 0)
    return constantColumn(e, size_t(c), stats->mean[c]);
  cfg.featureMean = std::move(stats->mean);
  cfg.featureStd = std::move(stats->stdev);
  return true;
}

std::optional<DataConfig> DataChecker::check(const DataDecl &decl) {
  DataConfig cfg;
  cfg.name = decl.getName().str();
  cfg.loc = decl.getNameRange().Start;
  bool ok = true;
  std::map<std::string, llvm::SMLoc> seen;
  const Expr *imageExpr = nullptr, *augmentExpr = nullptr,
             *validationExpr = nullptr, *standardizeExpr = nullptr;
  std::vector<const Field *> splits;
  for (const Field &f : decl.getFields()) {
    if (seen.count(f.name)) {
      diags.error(f.nameRange.Start, "field '" + f.name + "' is set twice",
                  {f.nameRange});
      diags.note(seen[f.name], "first set here");
      ok = false;
      continue;
    }
    seen[f.name] = f.nameRange.Start;
    if (f.name == "train" || f.name == "test") {
      splits.push_back(&f);
    } else if (f.name == "resize" || f.name == "center_crop" ||
               f.name == "channels") {
      ok &= checkImageOption(f);
    } else if (f.name == "image") {
      imageExpr = f.value.get();
    } else if (f.name == "augment") {
      augmentExpr = f.value.get();
    } else if (f.name == "validation") {
      validationExpr = f.value.get();
    } else if (f.name == "standardize") {
      standardizeExpr = f.value.get();
    } else {
      bool literal = !llvm::isa<CallExpr>(*f.value) &&
                     !llvm::isa<PipeExpr>(*f.value) &&
                     !llvm::isa<ListExpr>(*f.value);
      Value v = literal ? evalConst(diags, *f.value, env) : Value();
      if (!literal ||
          (!v.isError() && v.kind != Value::Kind::String && !v.isNumber())) {
        diags.error(f.nameRange.Start,
                    "unknown field '" + f.name +
                        "' in data block; expected train, test, image, "
                        "augment, validation, standardize, resize, "
                        "center_crop, channels, or a named string or number "
                        "constant",
                    {f.nameRange});
        v = Value::error();
      }
      ok &= !v.isError();
      env[f.name] = v;
    }
  }
  for (const Field *f : splits) {
    std::optional<DataSplit> s = checkSplit(*f, cfg);
    ok &= s.has_value();
    (f->name == "train" ? cfg.train : cfg.test) = s;
  }
  if (ok && firstImageOption && cfg.train && cfg.train->format != "images") {
    diags.error(firstImageOption->nameRange.Start,
                "'" + firstImageOption->name +
                    "' applies to images(dir) splits only",
                {firstImageOption->nameRange});
    ok = false;
  }
  bool refused = !checkSampleFields(decl, cfg);
  ok &= !refused;
  if (imageExpr && !refused)
    ok &= checkImage(*imageExpr, cfg);
  if (ok && !cfg.train) {
    diags.error(decl.getNameRange().Start,
                "data block '" + decl.getName() +
                    "' has no train split (train = idx(...), csv(...) or "
                    "images(...))");
    ok = false;
  }
  if (ok && augmentExpr)
    ok &= checkAugmentations(diags, *augmentExpr, env, cfg);
  if (ok && validationExpr)
    ok &= checkValidation(*validationExpr, cfg);
  if (ok && standardizeExpr)
    ok &= checkStandardize(*standardizeExpr, imageExpr, cfg);
  if (!ok)
    return std::nullopt;
  return cfg;
}

std::optional<DataConfig> sema::checkData(DiagnosticEngine &diags,
                                          const DataDecl &decl,
                                          llvm::StringRef baseDir) {
  DataChecker checker(diags, baseDir);
  return checker.check(decl);
}
