//===- DataText.cpp - Checking token-stream splits ------------------------===//
//
// A token stream becomes next-token windows (modelsupport/Text.h):
//   text(path, seq=N, tokens="chars")   a text file; `chars` (the default):
//                                        one token per UTF-8 character, the
//                                        vocabulary the train file's distinct
//                                        characters sorted; `bytes`: one
//                                        token per byte, 256 ids
//   npy(path, seq=N, vocab=V)            a 1-D NPY array of integer ids
//                                        (u8, i32, i64); the vocabulary is
//                                        V, else the largest id + 1
// The whole file is read at compile time: it must exist, hold at least
// N + 1 tokens, be valid UTF-8 (chars; an error names the byte's offset,
// line and column) or hold no negative id (npy). A test split's characters
// must all be in the train split's vocabulary.
//
//===----------------------------------------------------------------------===//

#include "Config.h"

#include "modelsupport/Idx.h"
#include "modelsupport/ShapeArith.h"
#include "modelsupport/Text.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace modelc;
using namespace modelc::sema;
namespace txt = modelsupport::text;

namespace {
/// The arguments of text(...) or npy(path, seq=...).
struct StreamArgs {
  const Expr *pathArg = nullptr;
  std::string path;
  int64_t seq = 0;
  std::string tokens = "chars"; ///< text only
  int64_t vocab = 0;            ///< npy only; 0: the largest id + 1
};

/// Reads the arguments of one token-stream call.
class StreamArgReader {
public:
  StreamArgReader(DiagnosticEngine &diags, const CallExpr &call,
                  const ConstEnv &env, bool text)
      : diags(diags), call(call), env(env), text(text) {}
  std::optional<StreamArgs>
  read(llvm::function_ref<std::string(const Value &)> resolve);

private:
  bool fail(const Expr &at, const llvm::Twine &msg) {
    diags.error(at.getLoc(), msg, {at.getRange()});
    return false;
  }
  bool keyword(const Arg &a, StreamArgs &out);
  std::optional<int64_t> positiveInt(const Arg &a);
  const char *usage() const {
    return text ? "text(path, seq=N, tokens=\"chars\" or \"bytes\")"
                : "npy(path, seq=N, vocab=V) for a token stream";
  }

  DiagnosticEngine &diags;
  const CallExpr &call;
  const ConstEnv &env;
  bool text;
};
} // namespace

std::optional<int64_t> StreamArgReader::positiveInt(const Arg &a) {
  Value v = evalConst(diags, *a.value, env);
  if (v.isError())
    return std::nullopt;
  if (v.kind != Value::Kind::Int || v.i < 1 ||
      v.i > modelsupport::kMaxTensorElements) {
    fail(*a.value, a.keyword + " must be an integer in [1, 2^31], got " +
                       v.describe(Graph()));
    return std::nullopt;
  }
  return v.i;
}

bool StreamArgReader::keyword(const Arg &a, StreamArgs &out) {
  if (a.keyword == "seq" || (!text && a.keyword == "vocab")) {
    std::optional<int64_t> n = positiveInt(a);
    if (n)
      (a.keyword == "seq" ? out.seq : out.vocab) = *n;
    return n.has_value();
  }
  if (text && a.keyword == "tokens") {
    Value v = evalConst(diags, *a.value, env);
    if (v.isError())
      return false;
    if (v.kind == Value::Kind::String && (v.s == "chars" || v.s == "bytes"))
      return (out.tokens = v.s), true;
    return fail(*a.value, "tokens must be \"chars\" (one token per UTF-8 "
                          "character) or \"bytes\", got " +
                              v.describe(Graph()));
  }
  diags.error(a.keywordRange.Start,
              "unknown argument '" + a.keyword + "'; expected " + usage(),
              {a.keywordRange});
  return false;
}

std::optional<StreamArgs> StreamArgReader::read(
    llvm::function_ref<std::string(const Value &)> resolve) {
  StreamArgs out;
  const auto &args = call.getArgs();
  if (args.empty() || args[0].isKeyword() ||
      (args.size() > 1 && !args[1].isKeyword())) {
    diags.error(call.getLoc(), llvm::Twine("expected one file path: ") + usage(),
                {call.getRange()});
    return std::nullopt;
  }
  for (size_t i = 1; i < args.size(); ++i)
    if (!keyword(args[i], out))
      return std::nullopt;
  if (out.seq == 0) {
    diags.error(call.getLoc(),
                llvm::Twine("missing seq=N, the window length (the model "
                            "input's length): ") + usage(),
                {call.getRange()});
    return std::nullopt;
  }
  out.pathArg = args[0].value.get();
  Value v = evalConst(diags, *out.pathArg, env);
  if (v.isError())
    return std::nullopt;
  if (v.kind != Value::Kind::String) {
    fail(*out.pathArg, "expected a file path (a string), got " +
                           v.describe(Graph()));
    return std::nullopt;
  }
  out.path = resolve(v);
  return out;
}

/// "'t.txt' holds 10 characters, fewer than seq + 1 = 17 ..." or nothing
/// when the stream of `n` tokens holds a window.
static bool checkLength(DiagnosticEngine &diags, const StreamArgs &a,
                        int64_t n, llvm::StringRef unit) {
  if (n > a.seq)
    return true;
  diags.error(a.pathArg->getLoc(),
              "'" + a.path + "' holds " + llvm::Twine(n) + " " + unit +
                  ", fewer than seq + 1 = " + llvm::Twine(a.seq + 1) +
                  ": a window of " + llvm::Twine(a.seq) +
                  " tokens needs the token after it as its last label",
              {a.pathArg->getRange()});
  return false;
}

/// Decodes a chars text, reporting invalid UTF-8 at `a`'s path.
static bool decodeChars(DiagnosticEngine &diags, const StreamArgs &a,
                        llvm::StringRef bytes, std::vector<uint32_t> &cps) {
  const auto *s = reinterpret_cast<const unsigned char *>(bytes.data());
  size_t bad = 0;
  if (txt::decodeText(s, bytes.size(), cps, bad))
    return true;
  txt::Place p = txt::placeOf(s, bad);
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", unsigned(s[bad]));
  diags.error(a.pathArg->getLoc(),
              "'" + a.path + "' is not valid UTF-8: byte " + hex +
                  " at offset " + llvm::Twine(uint64_t(bad)) + " (line " +
                  llvm::Twine(uint64_t(p.line)) + ", column " +
                  llvm::Twine(uint64_t(p.column)) +
                  "); convert it to UTF-8, or read it with tokens = \"bytes\"",
              {a.pathArg->getRange()});
  return false;
}

/// A test split's characters (valid UTF-8 `bytes`) must be in the train
/// split's vocabulary.
static bool checkInVocabulary(DiagnosticEngine &diags, const CallExpr &call,
                              const StreamArgs &a, llvm::StringRef bytes,
                              const TokenSplit &train) {
  const auto *s = reinterpret_cast<const unsigned char *>(bytes.data());
  for (size_t at = 0; at < bytes.size();) {
    size_t start = at;
    uint32_t cp = 0;
    txt::decodeUtf8(s, bytes.size(), at, cp);
    if (txt::idOf(train.vocab, cp) >= 0)
      continue;
    txt::Place p = txt::placeOf(s, start);
    diags.error(call.getLoc(),
                a.path + ":" + llvm::Twine(uint64_t(p.line)) + ":" +
                    llvm::Twine(uint64_t(p.column)) + ": character " +
                    txt::describeChar(cp) +
                    " is not in the vocabulary of the train split (the " +
                    llvm::Twine(uint64_t(train.vocab.size())) +
                    " characters of " + train.split.paths[0] + ")",
                {call.getRange()});
    return false;
  }
  return true;
}

std::optional<TokenSplit>
sema::checkTextSplit(DiagnosticEngine &diags, const CallExpr &call,
                     const ConstEnv &env,
                     llvm::function_ref<std::string(const Value &)> resolve,
                     const TokenSplit *train) {
  std::optional<StreamArgs> a =
      StreamArgReader(diags, call, env, true).read(resolve);
  if (!a)
    return std::nullopt;
  auto fail = [&](const llvm::Twine &why) -> std::optional<TokenSplit> {
    diags.error(a->pathArg->getLoc(),
                "cannot read text file '" + a->path + "': " + why,
                {a->pathArg->getRange()});
    return std::nullopt;
  };
  if (llvm::Error e = checkRegularFile(a->path))
    return fail(llvm::toString(std::move(e)));
  auto buf = llvm::MemoryBuffer::getFile(a->path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf)
    return fail(buf.getError().message());
  llvm::StringRef bytes = (*buf)->getBuffer();
  if (bytes.empty())
    return fail("the file is empty");
  TokenSplit t;
  t.split.format = "text";
  t.split.paths = {a->path};
  t.seq = a->seq;
  t.tokens = a->tokens;
  std::vector<uint32_t> cps;
  if (a->tokens == "bytes") {
    t.split.numTokens = int64_t(bytes.size());
    t.vocabSize = txt::kByteVocabulary;
  } else {
    if (!decodeChars(diags, *a, bytes, cps) ||
        (train && !train->vocab.empty() &&
         !checkInVocabulary(diags, call, *a, bytes, *train)))
      return std::nullopt;
    t.split.numTokens = int64_t(cps.size());
    t.vocab = train ? train->vocab : txt::vocabularyOf(cps);
    t.vocabSize = int64_t(t.vocab.size());
  }
  if (!checkLength(diags, *a, t.split.numTokens,
                   a->tokens == "bytes" ? "bytes" : "characters"))
    return std::nullopt;
  t.split.numSamples = txt::epochWindows(t.split.numTokens, t.seq);
  return t;
}

std::optional<TokenSplit>
sema::checkNpyTokens(DiagnosticEngine &diags, const CallExpr &call,
                     const ConstEnv &env,
                     llvm::function_ref<std::string(const Value &)> resolve) {
  std::optional<StreamArgs> a =
      StreamArgReader(diags, call, env, false).read(resolve);
  if (!a)
    return std::nullopt;
  auto fail = [&](const llvm::Twine &why) -> std::optional<TokenSplit> {
    diags.error(a->pathArg->getLoc(), "'" + a->path + "': " + why,
                {a->pathArg->getRange()});
    return std::nullopt;
  };
  llvm::Expected<IdxHeader> h = readNpyHeader(a->path);
  if (!h)
    return fail("cannot read NPY file: " + llvm::toString(h.takeError()));
  if (h->dims.size() != 1 || modelsupport::idx::isFloat(h->typeCode)) {
    Shape dims;
    for (int64_t d : h->dims)
      dims.push_back(SDim::fixed(d));
    return fail("token ids must be a 1-D array of integers (u8, i32 or "
                "i64), the file holds " +
                llvm::Twine(idxTypeName(h->typeCode)) + " values of shape " +
                shapeStr(dims));
  }
  llvm::Expected<int64_t> maxId = scanNpyTokens(a->path, *h);
  if (!maxId)
    return fail(llvm::toString(maxId.takeError()));
  if (a->vocab && *maxId >= a->vocab)
    return fail("holds id " + llvm::Twine(*maxId) + ", outside vocab = " +
                llvm::Twine(a->vocab) + " (ids are 0 .. vocab - 1)");
  TokenSplit t;
  t.split.format = "npy";
  t.split.paths = {a->path};
  t.split.numTokens = h->dims[0];
  t.seq = a->seq;
  t.vocabSize = a->vocab ? a->vocab : *maxId + 1;
  t.declaredVocab = a->vocab > 0;
  if (!checkLength(diags, *a, t.split.numTokens, "tokens"))
    return std::nullopt;
  t.split.numSamples = txt::epochWindows(t.split.numTokens, t.seq);
  return t;
}
