//===- TrainSchemaTest.cpp - Every schema option reaches the runtime ------===//
//
// Iterates over the entries of modelsupport/TrainConfig.def. For every kind
// of optimizer and schedule, a train block giving every option and setting
// a value other than its default is compiled: Sema folds it, MLIRGen
// encodes it in `mdl.config` (each under its schema key), Codegen decodes
// it into TrainDefaults and emits the ModelrtTrainConfig constant, which is
// JIT-compiled and read through the runtime's C header; each value must
// arrive unchanged (a fixed cosine length in epochs). Also checks
// that every ABI field of the schema sits at the same offset with the same
// size in the C header and in the emitted LLVM type, and that
// docs/language.md lists every option, kind and setting.
//
//===----------------------------------------------------------------------===//

#include "Codegen/ConfigReader.h"
#include "MLIRGen/ConfigAttr.h"

#include "modelc/Codegen/ProgramEmitter.h"
#include "modelc/Codegen/ProgramLayout.h"
#include "modelc/Frontend/Parser.h"
#include "modelc/Sema/Sema.h"
#include "modelc/Target/ObjectEmitter.h"

#include "modelrt/core/Program.h"
#include "modelsupport/TrainSchema.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

using namespace modelc;
namespace ms = modelsupport;

namespace {

/// Reads a number out of an ABI field (a list reads as its first element).
template <class T> double num(const T &x) {
  if constexpr (std::is_pointer_v<T>)
    return x ? double(x[0]) : -1;
  else if constexpr (std::is_arithmetic_v<T>)
    return double(x);
  else
    return x.empty() ? -1 : double(x[0]);
}

/// Where one option or setting lands, in the runtime's struct and in
/// TrainDefaults.
struct Access {
  double (*runtime)(const ModelrtTrainConfig &);
  double (*spec)(const TrainDefaults &);
};

const Access kOptionAccess[] = {
#define MODELRT_TRAIN_OPTION(NAME, TYPE, DEFAULT, LO, HI, BOUNDS, RANGE, ENC,  \
                             OMIT, ABI, DOC)                                   \
  {[](const ModelrtTrainConfig &c) { return num(c.ABI); },                     \
   [](const TrainDefaults &c) { return num(c.ABI); }},
#include "modelsupport/TrainConfig.def"
};
const Access kSettingAccess[] = {
#define MODELRT_SETTING(KIND, NAME, TYPE, DEFAULT, LO, HI, BOUNDS, RANGE, KEY, \
                        ENC, ABI, MAP, DOC)                                    \
  {[](const ModelrtTrainConfig &c) { return num(c.ABI); },                     \
   [](const TrainDefaults &c) { return num(c.ABI); }},
#include "modelsupport/TrainConfig.def"
};

/// A valid value other than the default.
double nonDefault(ms::SettingType type, double dflt, const ms::Range &r) {
  if (type == ms::SettingType::Flag)
    return dflt == 0 ? 1 : 0;
  double x = type == ms::SettingType::Real && std::isfinite(r.hi)
                 ? r.lo + (r.hi - r.lo) * 0.375
                 : r.lo + (type == ms::SettingType::Real ? 0.375 : 3);
  if (x == dflt)
    x += type == ms::SettingType::Real ? 0.125 : 1;
  EXPECT_TRUE(r.contains(x)) << x;
  return x;
}

std::string literal(ms::SettingType type, double x) {
  if (type == ms::SettingType::Flag)
    return x != 0 ? "true" : "false";
  if (type == ms::SettingType::IntList)
    return "[1, 2]";
  std::ostringstream os;
  os.precision(17);
  os << x;
  return os.str();
}

/// `kind(name=value, ...)` with every setting of `kind` off its default.
std::string call(const char *kind, std::map<std::string, double> &values) {
  std::string out = std::string(kind) + "(";
  bool first = true;
  for (const ms::SettingInfo &s : ms::kSettings) {
    if (std::strcmp(s.kind, kind) != 0)
      continue;
    double x = nonDefault(s.type, s.dflt, s.range);
    values[std::string(kind) + "." + s.name] = x;
    out += (first ? "" : ", ") + std::string(s.name) + "=" +
           literal(s.type, x);
    first = false;
  }
  return out + ")";
}

/// The kinds of `group`, in schema order.
std::vector<const char *> kinds(ms::Group group) {
  std::vector<const char *> out;
  for (const ms::KindInfo &k : ms::kKinds)
    if (k.group == group)
      out.push_back(k.name);
  return out;
}

constexpr int kRows = 100;

class TrainSchemaTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  }

  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("schema", dir));
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, "rows.csv");
    csv = path.str().str();
    std::ofstream f(csv);
    f << "a,b,y\n";
    for (int i = 0; i < kRows; ++i)
      f << i << "," << (i % 7) << "," << (i * 0.5) << "\n";
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  /// Compiles `train` (a train block's fields) down to the runtime's struct
  /// and checks every value in `values` ("kind.setting" or "option").
  void roundTrip(const std::string &train,
                 const std::map<std::string, double> &values,
                 const char *optimizer, const char *schedule);

  llvm::SmallString<128> dir;
  std::string csv;
};

/// A program whose train block holds `fields`, analysed; null on errors.
std::unique_ptr<sema::Program> analyze(llvm::SourceMgr &sm,
                                       const std::string &csv,
                                       const std::string &fields,
                                       std::string &diagnostics) {
  std::string text = "import nn\n"
                     "model M(x: f32[B, 2]) -> f32[B, 1] {\n"
                     "  return nn.linear(x, 1)\n}\n"
                     "data D {\n  train = csv(\"" + csv +
                     "\", label=\"y\", features=[\"a\", \"b\"])\n}\n"
                     "train M on D {\n  loss = mse_loss(logits, label)\n" +
                     fields + "\n}\n";
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "t.model"),
                        llvm::SMLoc());
  llvm::raw_string_ostream os(diagnostics);
  DiagnosticEngine diags(sm, os);
  auto module = parseModule(diags, sm.getMainFileID());
  if (diags.hasErrors())
    return nullptr;
  SemaOptions options;
  options.stdlibDir = MODELC_STDLIB_DIR;
  auto program = analyzeProgram(diags, *module, options);
  return diags.hasErrors() ? nullptr : std::move(program);
}

/// A failed llvm::Expected or llvm::Error as a test failure (consumed).
template <typename T> static bool failed(T &e, const char *what) {
  if (e)
    return false;
  ADD_FAILURE() << what << ": " << llvm::toString(e.takeError());
  return true;
}

/// JIT-compiles the ModelrtTrainConfig constant of `c`; returns the JIT
/// (which owns the memory) and sets `out`, or null (and a test failure).
std::unique_ptr<llvm::orc::LLJIT> jitConfig(const TrainDefaults &c,
                                            const ModelrtTrainConfig *&out) {
  out = nullptr;
  auto ctx = std::make_unique<llvm::LLVMContext>();
  auto m = std::make_unique<llvm::Module>("cfg", *ctx);
  auto tm = createTargetMachine(TargetOptions{});
  if (failed(tm, "target machine"))
    return nullptr;
  m->setDataLayout((*tm)->createDataLayout());
  emitTrainConfig(*m, c, "schema_config");
  auto jit = llvm::orc::LLJITBuilder().create();
  if (failed(jit, "LLJIT"))
    return nullptr;
  if (llvm::Error e = (*jit)->addIRModule(
          llvm::orc::ThreadSafeModule(std::move(m), std::move(ctx)))) {
    ADD_FAILURE() << "addIRModule: " << llvm::toString(std::move(e));
    return nullptr;
  }
  auto sym = (*jit)->lookup("schema_config");
  if (failed(sym, "lookup"))
    return nullptr;
  out = sym->toPtr<const ModelrtTrainConfig *>();
  return std::move(*jit);
}

void TrainSchemaTest::roundTrip(const std::string &train,
                                const std::map<std::string, double> &values,
                                const char *optimizer, const char *schedule) {
  llvm::SourceMgr sm;
  std::string diagnostics;
  auto program = analyze(sm, csv, train, diagnostics);
  ASSERT_TRUE(program) << diagnostics << train;
  mlir::MLIRContext mctx;
  mlir::DictionaryAttr attr =
      buildConfigAttr(mctx, *program, *program->getMainModel());
  TrainDefaults spec;
  llvm::Error e = readTrainDefaults(attr, spec);
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  const ModelrtTrainConfig *rt = nullptr;
  auto jit = jitConfig(spec, rt);
  ASSERT_TRUE(rt);

  for (size_t i = 0; i < std::size(ms::kOptions); ++i) {
    const ms::OptionInfo &o = ms::kOptions[i];
    double want = values.at(o.name);
    EXPECT_TRUE(attr.get(o.name)) << o.name;
    EXPECT_EQ(kOptionAccess[i].spec(spec), want) << o.name;
    EXPECT_EQ(kOptionAccess[i].runtime(*rt), want) << o.name;
  }
  EXPECT_EQ(rt->optimizer.kind, ms::findKind(ms::Group::Optimizer,
                                             optimizer)->value);
  EXPECT_EQ(rt->schedule.kind, ms::findKind(ms::Group::Schedule,
                                            schedule)->value);
  for (size_t i = 0; i < std::size(ms::kSettings); ++i) {
    const ms::SettingInfo &s = ms::kSettings[i];
    std::string id = std::string(s.kind) + "." + s.name;
    if (!values.count(id))
      continue;
    double want = values.at(id);
    if (s.type == ms::SettingType::IntList)
      want = 1; // [1, 2]: the first element; the count is checked below
    auto dict = attr.getAs<mlir::DictionaryAttr>(ms::groupKey(
        ms::groupOf(s.kind)));
    ASSERT_TRUE(dict) << id;
    EXPECT_TRUE(dict.get(s.key)) << id << ": no key " << s.key;
    EXPECT_EQ(kSettingAccess[i].spec(spec), want) << id;
    EXPECT_EQ(kSettingAccess[i].runtime(*rt), want) << id;
    if (s.type == ms::SettingType::IntList) {
      ASSERT_EQ(rt->schedule.num_milestones, 2) << id;
      EXPECT_EQ(rt->schedule.milestones[1], 2) << id;
    }
  }
}

TEST_F(TrainSchemaTest, EveryOptionReachesTheRuntime) {
  std::vector<const char *> optimizers = kinds(ms::Group::Optimizer);
  std::vector<const char *> schedules = kinds(ms::Group::Schedule);
  size_t runs = std::max(optimizers.size(), schedules.size());
  for (size_t r = 0; r < runs; ++r) {
    const char *opt = optimizers[r % optimizers.size()];
    const char *sched = schedules[r % schedules.size()];
    std::map<std::string, double> values;
    std::string train;
    for (const ms::OptionInfo &o : ms::kOptions) {
      double x = nonDefault(o.type, o.dflt, o.range);
      values[o.name] = x;
      train += "  " + std::string(o.name) + " = " + literal(o.type, x) + "\n";
    }
    train += "  optimizer = " + call(opt, values) + "\n";
    train += "  schedule = " + call(sched, values) + "\n";
    for (const char *stop : kinds(ms::Group::Stopping))
      train += "  early_stopping = " + call(stop, values) + "\n";
    SCOPED_TRACE(train);
    roundTrip(train, values, opt, sched);
  }
}

/// Checks each ABI field of one schema struct: the offset and size of the
/// C header's member against the emitted LLVM type's element.
class AbiFields {
public:
  AbiFields(const llvm::DataLayout &dl, llvm::StructType *type)
      : dl(dl), type(type), layout(dl.getStructLayout(type)) {}
  void field(const char *name, size_t offset, size_t size) {
    ASSERT_LT(index, type->getNumElements()) << name;
    EXPECT_EQ(layout->getElementOffset(index), offset) << name;
    EXPECT_EQ(dl.getTypeAllocSize(type->getElementType(index)), size)
        << name;
    ++index;
  }
  unsigned index = 0;

private:
  const llvm::DataLayout &dl;
  llvm::StructType *type;
  const llvm::StructLayout *layout;
};

TEST_F(TrainSchemaTest, AbiFieldsMatchTheHeader) {
  auto tm = createTargetMachine(TargetOptions{});
  ASSERT_TRUE(bool(tm));
  llvm::DataLayout dl = (*tm)->createDataLayout();
  llvm::LLVMContext ctx;
  ProgramLayout l = ProgramLayout::get(ctx);
#define FIELD(T, F) #F, offsetof(T, F), sizeof(T::F)
#define FIELD_I32(T, F) fields.field(FIELD(T, F))
#define FIELD_I64(T, F) fields.field(FIELD(T, F))
#define FIELD_U64(T, F) fields.field(FIELD(T, F))
#define FIELD_F64(T, F) fields.field(FIELD(T, F))
#define FIELD_I64_LIST(T, F)                                                   \
  fields.field("num_" #F, offsetof(T, num_##F), sizeof(T::num_##F));           \
  fields.field(#F, offsetof(T, F), sizeof(T::F))
  {
    AbiFields fields(dl, l.optimizerConfig);
#define MODELRT_ABI_OPTIMIZER(TYPE, NAME, READ, CXX)                           \
  FIELD_##TYPE(ModelrtOptimizerConfig, NAME);
#include "modelsupport/TrainConfig.def"
    EXPECT_EQ(fields.index, l.optimizerConfig->getNumElements());
  }
  {
    AbiFields fields(dl, l.scheduleConfig);
#define MODELRT_ABI_SCHEDULE(TYPE, NAME, READ, CXX)                            \
  FIELD_##TYPE(ModelrtScheduleConfig, NAME);
#include "modelsupport/TrainConfig.def"
    EXPECT_EQ(fields.index, l.scheduleConfig->getNumElements());
  }
  {
    AbiFields fields(dl, l.trainConfig);
    fields.index = 3; // optimizer, schedule, data
#define MODELRT_ABI_TRAIN(TYPE, NAME) FIELD_##TYPE(ModelrtTrainConfig, NAME);
#include "modelsupport/TrainConfig.def"
    EXPECT_EQ(fields.index, l.trainConfig->getNumElements());
  }
}

TEST(TrainSchemaDocs, LanguageGuideListsEveryOption) {
  auto buf = llvm::MemoryBuffer::getFile(MODELC_DOCS_DIR "/language.md");
  ASSERT_TRUE(bool(buf));
  llvm::StringRef docs = (*buf)->getBuffer();
  for (const char *field : ms::kTrainFields)
    EXPECT_TRUE(docs.contains("`" + std::string(field)))
        << "docs/language.md does not name the train field " << field;
  for (const ms::KindInfo &k : ms::kKinds) {
    if (k.group == ms::Group::Stopping)
      continue; // early_stopping has its own paragraph
    size_t at = docs.find("| `" + std::string(k.name));
    ASSERT_NE(at, llvm::StringRef::npos)
        << "docs/language.md has no table row for " << k.name;
    llvm::StringRef row = docs.substr(at).take_until(
        [](char c) { return c == '\n'; });
    for (const ms::SettingInfo &s : ms::kSettings) {
      if (llvm::StringRef(s.kind) == k.name) {
        EXPECT_TRUE(row.contains(s.name))
            << "the row of " << k.name << " does not name " << s.name;
      }
    }
  }
}

} // namespace
