//===- CliTest.cpp - modelrt_main: subcommands, outputs and bad input ------===//
#include "CliRun.h"
#include "SoftmaxProgram.h"
#include "TestPng.h"

#include "modelrt/io/CheckpointStore.h"
#include "modelrt/io/GradientDump.h"
#include "modelrt/io/Json.h"
#include "modelrt/io/Safetensors.h"
#include "modelsupport/TrainSchema.h"

#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

using namespace modelrt;
using namespace modelrt_test;

namespace {
int gThreads = 0;
void setThreads(void *, int32_t n) { gThreads = n; }


/// A fixture with a trained checkpoint in DIR/ckpt.
struct Trained : Fixture {
  std::string ckptDir, ckpt;
  Trained() {
    prog.set_threads = setThreads;
    ckptDir = dir.path("ckpt");
    ckpt = ckptDir + "/last.safetensors";
    CliRun r = runCli(prog, {"train", "--epochs", "3", "--checkpoint-dir", ckptDir, "--log-dir",
                             dir.path("logs"), "--keep", "2", "--device", "cpu", "--threads", "2"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("trained 3 epochs (24 steps)"), std::string::npos) << r.out;
  }
  /// Every file of the checkpoint directory with its bytes.
  std::map<std::string, std::string> snapshotFiles() const {
    std::map<std::string, std::string> files;
    for (const char *n : {"epoch-000002.safetensors", "epoch-000003.safetensors",
                          "last.safetensors", "best.safetensors"})
      files[n] = slurp(ckptDir + "/" + n);
    return files;
  }
};

/// Softmax of the program's logits for sample \p x, computed here.
std::vector<double> expectedProbs(const ModelState &m, const float *x) {
  double prob[kC];
  forward(const_cast<float *const *>(m.paramPtrs.data()), x, prob);
  return std::vector<double>(prob, prob + kC);
}
} // namespace

TEST(Cli, TrainWritesCheckpointsAndLogsAndPassesThreads) {
  Trained t;
  EXPECT_EQ(gThreads, 2);
  EXPECT_EQ(listEpochCheckpoints(t.ckptDir),
            (std::vector<std::string>{"epoch-000002.safetensors", "epoch-000003.safetensors"}));
  EXPECT_EQ(access(t.ckpt.c_str(), F_OK), 0);
  EXPECT_EQ(access((t.ckptDir + "/best.safetensors").c_str(), F_OK), 0);
  EXPECT_EQ(access(t.dir.path("logs/metrics.jsonl").c_str(), F_OK), 0);
  CliRun r = runCli(t.prog, {"eval", "--checkpoint", t.ckpt});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("(30 samples): loss "), std::string::npos) << r.out;
  // --device auto (the default) says once why it runs on the CPU.
  EXPECT_NE(r.err.find("note: running on the CPU (compiled with --no-gpu: no GPU code)"),
            std::string::npos) << r.err;
}

TEST(Cli, AnOutputThatIsAFileTheCommandReadsIsRefusedAndTheFileKept) {
  // predict --out and --roofline would replace the checkpoint, the data or
  // the INPUT (another spelling of the path, or a hard link, too).
  Trained t;
  std::string link = t.dir.path("hardlink.safetensors");
  ASSERT_EQ(::link(t.ckpt.c_str(), link.c_str()), 0);
  std::string ck = slurp(t.ckpt), data = slurp(t.trainX);
  char self[4096] = {0}; // the executable by its own path, not /proc's link
  ASSERT_GT(::readlink("/proc/self/exe", self, sizeof self - 1), 0);
  std::string exe = self, moved = t.dir.path("moved"); // --data-dir's files
  ASSERT_EQ(::mkdir(moved.c_str(), 0755), 0);
  for (const std::string &f : {t.trainX, t.trainY, t.testX, t.testY})
    writeText(moved + f.substr(f.rfind('/')), slurp(f));
  struct Case {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"predict", "--checkpoint", t.ckpt, "--out", link, t.testX},
       "error: --out " + link +
           " is the checkpoint it reads (--checkpoint): write the outputs to "
           "another file"},
      {{"predict", "--checkpoint", t.ckpt, "--out", t.testX, t.testX},
       "error: --out " + t.testX + " is the INPUT file: write the outputs to another file"},
      {{"eval", "--checkpoint", t.ckpt, "--roofline", t.ckptDir + "/./last.safetensors"},
       "error: --roofline " + t.ckptDir +
           "/./last.safetensors is the checkpoint it reads "
           "(--checkpoint): write the roofline to another file"},
      {{"train", "--epochs", "4", "--resume", t.ckpt, "--checkpoint-dir", t.dir.path("r"),
        "--roofline", t.trainX},
       "error: --roofline " + t.trainX +
           " is a data file of the model: write the roofline to "
           "another file"},
      {{"eval", "--checkpoint", t.ckpt, "--roofline", exe},
       "error: --roofline " + exe + " is this executable: write the roofline to another file"},
      {{"train", "--epochs", "4", "--resume", t.ckpt, "--checkpoint-dir", t.dir.path("r"),
        "--data-dir", moved, "--roofline", moved + "/train_y.npy"},
       "error: --roofline " + moved +
           "/train_y.npy is a data file of the model: write the "
           "roofline to another file"}};
  for (const Case &c : cases) {
    CliRun r = runCli(t.prog, c.args);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  }
  EXPECT_EQ(slurp(t.ckpt), ck);
  EXPECT_EQ(slurp(t.trainX), data);
  EXPECT_NE(access(t.dir.path("r").c_str(), F_OK), 0);
  // A new file, or one the command does not read, is written.
  CliRun r = runCli(t.prog, {"eval", "--checkpoint", t.ckpt, "--roofline", t.dir.path("r.svg")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(access(t.dir.path("r.svg").c_str(), F_OK), 0);
}

TEST(Cli, ACheckpointOfARenamedModelIsUsedWithANote) {
  // The tensors fit; only the model's name differs (modelsupport/
  // CheckpointModel.h): eval, predict and train --resume use it, with the
  // same results as under the old name, and say so once.
  Trained t;
  ModelrtProgram renamed = t.prog;
  renamed.name = "renamed";
  std::string note = "net: note: " + t.ckpt +
                     " is a checkpoint of model 'softmax', not of 'renamed'; its tensors fit this "
                     "model, so it is used\n";
  for (std::vector<std::string> args :
       {std::vector<std::string>{"eval", "--checkpoint", t.ckpt},
        std::vector<std::string>{"predict", "--checkpoint", t.ckpt, t.testX}}) {
    CliRun before = runCli(t.prog, args), after = runCli(renamed, args);
    EXPECT_EQ(after.status, 0) << after.err;
    EXPECT_EQ(after.out, before.out) << args[0];
    EXPECT_EQ(before.err.find("is a checkpoint of model"), std::string::npos) << before.err;
    EXPECT_NE(after.err.find(note), std::string::npos) << after.err;
    EXPECT_EQ(after.err.find(note), after.err.rfind(note)) << after.err; // once
  }
  CliRun r = runCli(renamed, {"train", "--epochs", "4", "--resume", t.ckpt, "--checkpoint-dir",
                              t.dir.path("again"), "--device", "cpu"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(note), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("trained 4 epochs (32 steps)"), std::string::npos) << r.out;
}

TEST(Cli, PredictPrintsClassAndSoftmaxProbabilities) {
  Trained t;
  auto ckpt = readCheckpoint(t.ckpt);
  ASSERT_TRUE(ckpt.isOk());
  ModelState m = initModelState(t.prog, 0);
  ASSERT_TRUE(restoreModelState(m, *ckpt, t.prog, t.ckpt).isOk());
  auto x = readNpy(t.testX);
  ASSERT_TRUE(x.isOk());
  CliRun r = runCli(t.prog, {"predict", "--checkpoint", t.ckpt, "--out", t.dir.path("p.npy"),
                             t.testX});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<double> p0 = expectedProbs(m, x->as<float>());
  int64_t best = std::max_element(p0.begin(), p0.end()) - p0.begin();
  std::string head = t.testX + "[0]: class " + std::to_string(best) + " probabilities ";
  ASSERT_EQ(r.out.rfind(head, 0), 0u) << r.out;
  double q[3];
  ASSERT_EQ(std::sscanf(r.out.c_str() + head.size(), "%lf %lf %lf\n", &q[0], &q[1], &q[2]), 3);
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(q[k], p0[k], 1e-6); // printed with 6 decimals
  auto probs = readNpy(t.dir.path("p.npy"));
  ASSERT_TRUE(probs.isOk());
  EXPECT_EQ(probs->shape(), (std::vector<int64_t>{30, 3}));
  EXPECT_NEAR(probs->as<float>()[0], p0[0], 1e-6);
  // --json: one object per sample.
  r = runCli(t.prog, {"predict", "--json", "--checkpoint", t.ckpt, t.testX});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 30);
  auto j = parseJson(r.out.substr(0, r.out.find('\n')), "line 1");
  ASSERT_TRUE(j.isOk()) << j.message();
  EXPECT_EQ(j->find("input")->text, t.testX);
  EXPECT_EQ(j->find("index")->number, 0);
  EXPECT_EQ(j->find("class")->number, double(best));
  ASSERT_EQ(j->find("probabilities")->items.size(), 3u);
  EXPECT_NEAR(j->find("probabilities")->items[2].number, p0[2], 1e-6); // float outputs
}

namespace {
/// Whether \p path exists (a file or a directory).
bool fileExists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}
/// A predict that returns its input: outputs of the input image's size.
int identityPredict(void *, float *const *, float *const *, const float *x, int64_t n,
                    float *out) {
  std::copy(x, x + n * kF, out);
  return 0;
}
const double kPerValueMean[] = {0.1, 0.2, 0.3, 0.4}, kPerValueStd[] = {2, 0.5, 1, 4};
/// A predict of four outputs per sample: x0, x1 squared, that square minus
/// itself and its negation (inf, NaN and -inf once x1 squared overflows).
int overflowPredict(void *, float *const *, float *const *, const float *x, int64_t n, float *out) {
  for (int64_t i = 0; i < n; ++i) {
    float sq = x[i * kF + 1] * x[i * kF + 1];
    out[i * 4] = x[i * kF], out[i * 4 + 1] = sq, out[i * 4 + 2] = sq - sq, out[i * 4 + 3] = -sq;
  }
  return 0;
}
} // namespace

TEST(Cli, PredictPrintsTinyHugeAndNonFiniteOutputsAndWarns) {
  Trained t;
  ModelrtProgram p = t.prog;
  p.output_shape = inShape, p.predict = overflowPredict, p.num_classes = 0;
  Tensor x(DType::F32, {2, kF});
  const float in[] = {1.5e-30f, 2, 0, 0, 3e38f, 1e30f, 0, 0};
  std::copy(in, in + 2 * kF, x.as<float>());
  std::string file = t.dir.path("x.npy");
  ASSERT_TRUE(writeNpy(file, x).isOk());
  // Text: 6 significant digits, whatever the magnitude; nan, inf, -inf.
  CliRun r = runCli(p, {"predict", "--checkpoint", t.ckpt, file});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, file + "[0]: 1.5e-30 4 0 -4\n" + file + "[1]: 3e+38 inf nan -inf\n");
  EXPECT_NE(r.err.find("warning: 1 of 2 samples have outputs that are not finite (NaN or "
                       "infinity), the first " +
                       file + "[1]"),
            std::string::npos)
      << r.err;
  // JSON: numbers that read back as the same f32, and strings for the
  // values JSON has no number for.
  r = runCli(p, {"predict", "--json", "--checkpoint", t.ckpt, file});
  ASSERT_EQ(r.status, 0) << r.err;
  size_t eol = r.out.find('\n');
  auto j0 = parseJson(r.out.substr(0, eol), "line 1");
  auto j1 = parseJson(r.out.substr(eol + 1, r.out.find('\n', eol + 1) - eol - 1), "line 2");
  ASSERT_TRUE(j0.isOk() && j1.isOk()) << r.out;
  const auto &o0 = j0->find("outputs")->items, &o1 = j1->find("outputs")->items;
  ASSERT_EQ(o0.size(), 4u);
  ASSERT_EQ(o1.size(), 4u);
  EXPECT_EQ(float(o0[0].number), 1.5e-30f);
  EXPECT_EQ(o0[1].number, 4);
  EXPECT_EQ(float(o1[0].number), 3e38f);
  EXPECT_EQ(o1[1].text, "Infinity");
  EXPECT_EQ(o1[2].text, "NaN");
  EXPECT_EQ(o1[3].text, "-Infinity");
  // Finite outputs: no warning.
  Tensor ok(DType::F32, {1, kF});
  std::copy(in, in + kF, ok.as<float>());
  ASSERT_TRUE(writeNpy(file, ok).isOk());
  r = runCli(p, {"predict", "--checkpoint", t.ckpt, file});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

namespace {
/// The logit of input value \p v: v itself, but 1e30 overflows to +inf
/// (v * v) and -1e30 to NaN (v * v - v * v), as a model's products may.
float overflowingLogit(float v) {
  volatile float sq = v * v;
  return v >= 1e30f ? sq : v <= -1e30f ? sq - sq : v;
}
/// A classifier's predict whose logits are the input's first values: kC per
/// sample, or two positions of two classes (outputs [2, 2]).
int logitsPredict(void *, float *const *, float *const *, const float *x, int64_t n, float *out) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t c = 0; c < kC; ++c)
      out[i * kC + c] = overflowingLogit(x[i * kF + c]);
  return 0;
}
int positionLogitsPredict(void *, float *const *, float *const *, const float *x, int64_t n,
                          float *out) {
  for (int64_t i = 0; i < n * kF; ++i)
    out[i] = overflowingLogit(x[i]);
  return 0;
}
const int64_t kPositions[] = {2, 2}, kPositionLabels[] = {2};
} // namespace

TEST(Cli, PredictNamesNoClassForNaNLogitsAndTheInfiniteOneForInfinity) {
  Trained t;
  ModelrtProgram p = t.prog;
  p.predict = logitsPredict;
  Tensor x(DType::F32, {3, kF});
  const float in[] = {1, 2, 0, 0, -1e30f, 0, 0, 0, 1e30f, 0, 1e30f, 0};
  std::copy(in, in + 3 * kF, x.as<float>());
  std::string file = t.dir.path("x.npy");
  ASSERT_TRUE(writeNpy(file, x).isOk());
  // Softmax of (1, 2, 0): e^-1 / z, 1 / z, e^-2 / z, z = 1 + e^-1 + e^-2.
  double z = 1 + std::exp(-1.0) + std::exp(-2.0);
  char first[128];
  std::snprintf(first, sizeof first, "[0]: class 1 probabilities %.6f %.6f %.6f\n",
                std::exp(-1.0) / z, 1 / z, std::exp(-2.0) / z);
  CliRun r = runCli(p, {"predict", "--checkpoint", t.ckpt, file});
  ASSERT_EQ(r.status, 0) << r.err;
  // A NaN logit: no class; two +inf logits: the limit, half each.
  EXPECT_EQ(r.out, file + first + file +
                       "[1]: class none (NaN probabilities) probabilities nan nan nan\n" + file +
                       "[2]: class 0 probabilities 0.500000 0.000000 0.500000\n");
  EXPECT_NE(r.err.find("warning: 1 of 3 samples have outputs that are not finite (NaN or "
                       "infinity), the first " +
                       file + "[1]"),
            std::string::npos)
      << r.err;
  r = runCli(p, {"predict", "--json", "--checkpoint", t.ckpt, file});
  ASSERT_EQ(r.status, 0) << r.err;
  size_t eol = r.out.find('\n');
  auto j1 = parseJson(r.out.substr(eol + 1, r.out.find('\n', eol + 1) - eol - 1), "line 2");
  ASSERT_TRUE(j1.isOk()) << r.out;
  ASSERT_NE(j1->find("class"), nullptr) << r.out;
  EXPECT_EQ(j1->find("class")->kind, JsonValue::Kind::Null) << r.out;
  // A class per position: the NaN position has none (? and null).
  p.predict = positionLogitsPredict, p.output_rank = 2, p.output_shape = kPositions;
  p.label_rank = 1, p.label_shape = kPositionLabels;
  r = runCli(p, {"predict", "--checkpoint", t.ckpt, file});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, file + "[0]: classes 1 0\n" + file + "[1]: classes ? 0\n" + file +
                       "[2]: classes 0 0\n");
  r = runCli(p, {"predict", "--json", "--checkpoint", t.ckpt, file});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"index\": 1, \"classes\": [null, 0]}"), std::string::npos) << r.out;
}

TEST(Cli, PredictPngWritesImageOutputsAndUndoesTheTransform) {
  Trained t;
  writeBytes(t.dir.path("a.png"), makePng(2, 2, 0, 1, {200, 0, 17, 255}, {1, 4}));
  // Outputs that are not images: refused before anything is written.
  CliRun r = runCli(t.prog, {"predict", "--checkpoint", t.ckpt, "--png", t.dir.path("rec"),
                             t.dir.path("a.png")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--png: the model's output [3] per sample is not an image of its "
                       "input's size (input [4]: 4 values)"), std::string::npos) << r.err;
  EXPECT_FALSE(fileExists(t.dir.path("rec")));
  // An identity model with a per-value normalisation: the image comes back.
  ModelrtProgram p = t.prog;
  p.output_shape = inShape, p.predict = identityPredict, p.num_classes = 0;
  p.config.data.scale = 1.0 / 255, p.config.data.num_norm = 4;
  p.config.data.mean = kPerValueMean, p.config.data.std = kPerValueStd;
  r = runCli(p, {"predict", "--checkpoint", t.ckpt, "--png", t.dir.path("rec/deep"),
                 t.dir.path("a.png")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, t.dir.path("a.png") + "[0]: image " + t.dir.path("rec/deep/a-0.png") + "\n");
  auto img = readImage(t.dir.path("rec/deep/a-0.png"));
  ASSERT_TRUE(img.isOk()) << img.message();
  EXPECT_EQ(img->shape(), (std::vector<int64_t>{1, 2, 2}));
  const unsigned char *px = img->as<unsigned char>();
  EXPECT_EQ(std::vector<int>(px, px + 4), (std::vector<int>{200, 0, 17, 255}));
  // Two INPUTs with one stem, a normalisation that cannot be undone, a DIR
  // that cannot be made: errors, nothing written.
  writeBytes(t.dir.path("a.npy"), {});
  r = runCli(p, {"predict", "--checkpoint", t.ckpt, "--png", t.dir.path("two"),
                 t.dir.path("a.png"), t.dir.path("a.npy")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--png: two INPUTs would write the same files a-N.png; rename one"),
            std::string::npos) << r.err;
  ModelrtProgram c = p;
  c.num_classes = 3;
  r = runCli(c, {"predict", "--checkpoint", t.ckpt, "--png", t.dir.path("two"),
                 t.dir.path("a.png")});
  EXPECT_NE(r.err.find("--png: the model is a classifier (3 classes): its outputs are class "
                       "probabilities, not images"), std::string::npos) << r.err;
  ModelrtProgram q = p;
  q.config.data.num_norm = 2;
  r = runCli(q, {"predict", "--checkpoint", t.ckpt, "--png", t.dir.path("two"),
                 t.dir.path("a.png")});
  EXPECT_NE(r.err.find("--png: the data block normalises with 2 means, neither one, one per "
                       "channel (1) nor one per value (4)"), std::string::npos) << r.err;
  EXPECT_FALSE(fileExists(t.dir.path("two")));
  writeText(t.dir.path("plain"), "x");
  r = runCli(p, {"predict", "--checkpoint", t.ckpt, "--png", t.dir.path("plain/rec"),
                 t.dir.path("a.png")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--png: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("plain/rec"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(Cli, PredictReadsPngAndCsvInputs) {
  Trained t;
  // A 2x2 gray PNG is the 4 features (scale 1): pixels 200, 0, 0, 0.
  writeBytes(t.dir.path("a.png"), makePng(2, 2, 0, 1, {200, 0, 0, 0}, {1, 4}));
  writeText(t.dir.path("rows.csv"), "f0,f1,f2,f3\n0,2.5,0,0\n0,0,3,0.5\n");
  CliRun r = runCli(t.prog, {"predict", "--json", "--checkpoint", t.ckpt, t.dir.path("a.png"),
                             t.dir.path("rows.csv")});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<JsonValue> lines;
  size_t pos = 0;
  while (pos < r.out.size()) {
    size_t nl = r.out.find('\n', pos);
    auto j = parseJson(r.out.substr(pos, nl - pos), "output");
    ASSERT_TRUE(j.isOk()) << j.message();
    lines.push_back(*j);
    pos = nl + 1;
  }
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].find("class")->number, 0); // feature 0 is class 0's
  EXPECT_EQ(lines[1].find("class")->number, 1);
  EXPECT_EQ(lines[2].find("class")->number, 2);
  EXPECT_EQ(lines[2].find("index")->number, 1);
}

TEST(Cli, InfoAndHelp) {
  Fixture fx;
  fx.prog.train_flops_per_sample = 150;
  CliRun r = runCli(fx.prog, {"info", "--batch", "10"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("w          [4, 3]                         12"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("total parameters: 15\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FLOPs per training step (batch 10): 1500\n"), std::string::npos);
  // Adam: params 15 + grads 15 + moments 2 x 15 = 60 f32 values.
  EXPECT_NE(r.out.find("optimizer state: 240 B (15 + 15 + 0 + 30 f32 values)"),
            std::string::npos) << r.out;
  for (const char *cmd : {"train", "eval", "predict", "info"}) {
    r = runCli(fx.prog, {cmd, "--help"});
    EXPECT_EQ(r.status, 0) << cmd;
    EXPECT_EQ(r.out.rfind(std::string("usage: net ") + cmd, 0), 0u) << r.out;
    EXPECT_NE(r.out.find("--help"), std::string::npos);
  }
  r = runCli(fx.prog, {"train", "--help"});
  for (const char *opt : {"--epochs", "--batch", "--lr", "--seed", "--threads", "--device",
                          "--checkpoint-dir", "--resume", "--log-dir", "--keep"})
    EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
  r = runCli(fx.prog, {"--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("net info"), std::string::npos);
}

// info names what runs the convolutions after the matrix products, for a
// program with a convolution's weights (a rank-4 parameter) only.
TEST(Cli, InfoNamesTheConvolutionsOfAProgramWithConvolutionWeights) {
  Fixture fx;
  CliRun r = runCli(fx.prog, {"info"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("convolutions:"), std::string::npos) << r.out;
  static const int64_t convShape[] = {2, 1, 3, 3};
  ModelrtTensorDesc params[3] = {kParams[0], kParams[1], kParams[0]};
  params[2].name = "conv.w", params[2].rank = 4, params[2].shape = convShape;
  fx.prog.num_params = 3, fx.prog.params = params;
  r = runCli(fx.prog, {"info"});
  ASSERT_EQ(r.status, 0) << r.err;
  size_t products = r.out.find("\nmatrix products: ");
  ASSERT_NE(products, std::string::npos) << r.out;
  size_t next = r.out.find('\n', products + 1);
  EXPECT_EQ(r.out.compare(next, 15, "\nconvolutions: "), 0) << r.out;
}

TEST(Cli, BadInputIsAClearErrorAndDamagesNothing) {
  Trained t;
  auto before = t.snapshotFiles();
  struct Case {
    std::vector<std::string> args;
    int status;
    std::string message;
  };
  writeBytes(t.dir.path("bad.png"), [] {
    auto b = makePng(2, 2, 0, 1, {1, 2, 3, 4});
    b[b.size() - 17] ^= 1; // the last IDAT data byte
    return b;
  }());
  writeText(t.dir.path("bad.csv"), "f0,f1,f2,f3\n1,2,3,4\n1,2,x,4\n");
  const std::string &ck = t.ckpt;
  std::vector<Case> cases = {
      {{"fly"}, 2, "error: unknown command 'fly'"},
      {{}, 2, "error: missing command"},
      {{"train", "--wings", "2"}, 2, "error: unknown option '--wings' for 'train'"},
      {{"eval"}, 2, "error: 'eval' needs --checkpoint PATH"},
      {{"predict", t.testX}, 2, "error: 'predict' needs --checkpoint PATH"},
      {{"predict", "--checkpoint", ck}, 2, "needs at least one INPUT file"},
      {{"train", "--epochs"}, 2, "option '--epochs' needs a value"},
      {{"train", "--device", "cuda", "--checkpoint-dir", t.ckptDir},
       1,
       "--device cuda: this executable has no GPU code (it was compiled with --no-gpu)"},
      {{"train", "--device", "tpu"}, 2, "--device 'tpu': expected auto, cpu or cuda"},
      {{"train", "--epochs", "x", "--checkpoint-dir", t.ckptDir},
       1,
       "option --epochs: invalid value 'x'"},
      {{"train", "--epochs", "1.5", "--checkpoint-dir", t.ckptDir},
       1,
       "option --epochs: invalid value '1.5' (expected an integer >= 1)"},
      {{"train", "--lr", "-1", "--checkpoint-dir", t.ckptDir},
       1,
       "option --lr: invalid value '-1' (expected lr > 0)"},
      // Only the train block's literals: no hexadecimal, exponent or space
      // in an integer, no hexadecimal number.
      {{"train", "--epochs", "0x10", "--checkpoint-dir", t.ckptDir},
       1,
       "option --epochs: invalid value '0x10' (expected an integer >= 1)"},
      {{"train", "--epochs", "1e1", "--checkpoint-dir", t.ckptDir},
       1,
       "option --epochs: invalid value '1e1' (expected an integer >= 1)"},
      {{"train", "--epochs", " 5", "--checkpoint-dir", t.ckptDir},
       1,
       "option --epochs: invalid value ' 5' (expected an integer >= 1)"},
      {{"train", "--lr", "0x1p-3", "--checkpoint-dir", t.ckptDir},
       1,
       "option --lr: invalid value '0x1p-3' (expected lr > 0)"},
      // A flag that overrides a train-block option takes the option's values.
      {{"train", "--epochs", "0", "--checkpoint-dir", t.ckptDir},
       1,
       "option --epochs: invalid value '0' (expected an integer >= 1)"},
      {{"train", "--batch", "16777217", "--checkpoint-dir", t.ckptDir},
       1,
       "option --batch: invalid value '16777217' (expected an integer in [1, 16777216])"},
      {{"train", "--lr", "0", "--checkpoint-dir", t.ckptDir},
       1,
       "option --lr: invalid value '0' (expected lr > 0)"},
      {{"info", "--batch", "99999999999"},
       1,
       "option --batch: invalid value '99999999999' (expected an integer in [1, 16777216])"},
      {{"eval", "--checkpoint", ck, "--batch", "16777217"},
       1,
       "option --batch: invalid value '16777217' (expected an integer in [1, 16777216])"},
      {{"predict", "--checkpoint", ck, "--batch", "0", t.testX},
       1,
       "option --batch: invalid value '0' (expected an integer in [1, 16777216])"},
      // Resuming a finished run: nothing to train, nothing written.
      {{"train", "--resume", ck, "--epochs", "3", "--checkpoint-dir", t.dir.path("again")},
       1,
       ck + ": the checkpoint has finished 3 epochs and this run is 3 in all: nothing to train; "
            "resume with --epochs N, the new total, N > 3"},
      {{"predict", "--checkpoint", ck, t.dir.path("bad.png")},
       1,
       t.dir.path("bad.png") + ": PNG: IDAT: incorrect data check"},
      {{"predict", "--checkpoint", ck, t.testX, t.dir.path("bad.csv")},
       1,
       t.dir.path("bad.csv") + ":3:5: column 'f2': 'x' is not a valid"},
      {{"eval", "--checkpoint", t.dir.path("nope.safetensors")},
       1,
       "nope.safetensors: cannot open checkpoint"},
      {{"train", "--epochs", "4", "--checkpoint-dir", t.ckptDir, "--resume", t.testX},
       1,
       t.testX + ": byte 0: header length"},
      {{"gradcheck", "--samples", "0"},
       1,
       "option --samples: invalid value '0' (expected a positive integer)"},
      {{"gradcheck", "--samples", "2.5"},
       1,
       "option --samples: invalid value '2.5' (expected a positive integer)"},
      {{"gradcheck", "--samples", "0x10"},
       1,
       "option --samples: invalid value '0x10' (expected a positive integer)"},
      {{"gradcheck", "--samples", "1e3"},
       1,
       "option --samples: invalid value '1e3' (expected a positive integer)"},
      {{"gradcheck", "--samples", " 5"},
       1,
       "option --samples: invalid value ' 5' (expected a positive integer)"},
      {{"gradcheck", "--samples", "+-5"},
       1,
       "option --samples: invalid value '+-5' (expected a positive integer)"},
      {{"gradcheck", "--samples", "9223372036854775808"},
       1,
       "option --samples: invalid value '9223372036854775808' (expected a positive integer)"},
      {{"train", "--checkpoint-dir", t.ckptDir, "--keep", "-1"},
       1,
       "option --keep: invalid value '-1' (expected a non-negative integer)"},
      {{"gradcheck", "--tolerance", "-1"},
       1,
       "option --tolerance: invalid value '-1' (expected a positive number)"},
      {{"gradcheck", "--wings"}, 2, "error: unknown option '--wings' for 'gradcheck'"},
      {{"gradcheck", "--device", "cpu"}, 2, "error: unknown option '--device' for 'gradcheck'"},
      {{"gradcheck", "--checkpoint", t.dir.path("nope.safetensors")},
       1,
       "nope.safetensors: cannot open checkpoint"},
      {{"train", "--checkpoint-dir", t.ckptDir, "--overwrite-gradients"},
       2,
       "error: option '--overwrite-gradients' needs --dump-gradients DIR"},
      {{"train", "--checkpoint-dir", t.ckptDir, "--dump-gradients", ck + "/sub"},
       1,
       "error: --dump-gradients: " + ck + "/sub: cannot create the directory: Not a directory"},
      {{"train", "--checkpoint-dir", t.ckptDir, "--dump-gradients", ck},
       1,
       "error: --dump-gradients: " + ck + " is not a directory"},
      {{"train", "--checkpoint-dir", t.ckptDir, "--dump-gradients="},
       2,
       "error: option '--dump-gradients' needs a value (DIR), not an empty one"},
      {{"train", "--checkpoint-dir", ""},
       2,
       "error: option '--checkpoint-dir' needs a value (DIR), not an empty one"},
      {{"train", "--resume", "", "--checkpoint-dir", t.ckptDir},
       2,
       "error: option '--resume' needs a value (PATH), not an empty one"},
      {{"train", "--epochs", "2", "--epochs=3", "--checkpoint-dir", t.ckptDir},
       2,
       "error: option '--epochs' is given twice"},
      {{"train", "--out", t.dir.path("a"), "--checkpoint-dir", t.ckptDir},
       2,
       "error: '--out' is another name for '--checkpoint-dir': give one of them"},
      // A new run where the trained one's checkpoints and logs are.
      {{"train", "--checkpoint-dir", t.ckptDir, "--log-dir", t.dir.path("logs")},
       1,
       "error: " + t.ckptDir +
           ": holds an earlier run's outputs (best.safetensors, "
           "epoch-000002.safetensors, epoch-000003.safetensors and 1 more); continue that run "
           "with --resume " +
           t.ckptDir + "/last.safetensors, start over with --overwrite"},
      {{"train", "--checkpoint-dir", t.dir.path("elsewhere"), "--log-dir", t.dir.path("logs")},
       1,
       ".modelrt, metrics.csv, metrics.jsonl); start over with --overwrite (which deletes "
       "them), or choose another --log-dir"},
      {{"train", "--overwrite", "--resume", ck, "--epochs", "4", "--checkpoint-dir", t.ckptDir},
       1,
       "error: --overwrite starts a new run and --resume continues one: give one of them"},
      {{"predict", "--checkpoint", ck, "--out", t.testX, t.testX},
       1,
       "error: --out " + t.testX + " is the INPUT file: write the outputs to another file"}};
  for (const Case &c : cases) {
    CliRun r = runCli(t.prog, c.args);
    EXPECT_EQ(r.status, c.status) << c.args.size() << " " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out; // nothing printed before the error
  }
  EXPECT_FALSE(fileExists(t.dir.path("again"))); // the finished run's resume wrote nothing
  // A checkpoint of another model: every mismatched tensor is named.
  ModelrtProgram other = t.prog;
  other.name = "other";
  const int64_t w2[] = {kF, kC + 1}, extra[] = {2};
  ModelrtTensorDesc p2[] = {kParams[0], {"gain", MODELRT_F32, 1, extra, MODELRT_INIT_ZEROS,
                                         {0, 0}, 0, 0}};
  p2[0].shape = w2;
  other.params = p2;
  for (const char *cmd : {"eval", "predict"}) {
    std::vector<std::string> args = {cmd, "--checkpoint", ck};
    if (std::string(cmd) == "predict")
      args.push_back(t.testX);
    CliRun r = runCli(other, args);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("checkpoint of model 'softmax'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("does not fit model 'other'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("tensor 'param/w' is f32 [4, 3] in the checkpoint, the model needs "
                         "f32 [4, 4]"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("missing tensor 'param/gain' (f32 [2])"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("unexpected tensor 'param/b' (f32 [3])"), std::string::npos) << r.err;
  }
  CliRun r = runCli(other, {"train", "--epochs", "4", "--checkpoint-dir", t.ckptDir, "--resume",
                            ck});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("3 problem(s)"), std::string::npos) << r.err;
  EXPECT_EQ(t.snapshotFiles(), before);
  EXPECT_EQ(listEpochCheckpoints(t.ckptDir).size(), 2u);
}

TEST(Cli, PredictChecksEachInputsShape) {
  Trained t;
  auto npy = [&](const std::string &name, std::vector<int64_t> shape) {
    Tensor x(DType::F32, shape);
    for (int64_t i = 0; i < x.numElements(); ++i)
      x.as<float>()[i] = 0.5f;
    EXPECT_TRUE(writeNpy(t.dir.path(name), x).isOk());
    return t.dir.path(name);
  };
  // The model takes [4]: as an image, 2x2; 4x1 has the count but not the shape.
  std::string wide = t.dir.path("wide.png");
  writeBytes(wide, makePng(4, 1, 0, 1, {1, 2, 3, 4}));
  struct Case {
    std::string path, message;
  };
  std::vector<Case> cases = {
      {wide, wide + ": image is 4x1 with 1 channel(s) but the model takes 2x2 with 1 "
                    "channel(s) (input [4]); resize the image to 2x2"},
      {npy("two.npy", {2, 2}), t.dir.path("two.npy") + ": holds shape [2, 2] but the model "
                                   "takes samples of shape [4]; reshape it to (N, 4) or [4]"},
      {npy("empty.npy", {0, 4}), t.dir.path("empty.npy") + ": holds no samples (shape [0, 4]); "
                                     "give at least one sample of shape [4]"}};
  for (const Case &c : cases) {
    CliRun r = runCli(t.prog, {"predict", "--checkpoint", t.ckpt, c.path});
    EXPECT_EQ(r.status, 1) << c.path;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  // A model input of [1, 2, 2]: a [2, 2] array is one sample, [1, 4] is not.
  ModelrtProgram image = t.prog;
  const int64_t chw[] = {1, 2, 2};
  image.input_rank = 3, image.input_shape = chw;
  CliRun one = runCli(image, {"predict", "--checkpoint", t.ckpt, npy("one.npy", {2, 2})});
  EXPECT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(std::count(one.out.begin(), one.out.end(), '\n'), 1) << one.out;
  CliRun flat = runCli(image, {"predict", "--checkpoint", t.ckpt, npy("flat.npy", {1, 4})});
  EXPECT_EQ(flat.status, 1);
  EXPECT_NE(flat.err.find("flat.npy: holds shape [1, 4] but the model takes samples of shape "
                          "[1, 2, 2]; reshape it to (N, 1, 2, 2) or [1, 2, 2]"),
            std::string::npos) << flat.err;
}

TEST(Cli, PredictRefusesOversizedAndNonRegularInputs) {
  Trained t;
  std::string h = "{'descr': '<f4', 'fortran_order': False, 'shape': (999999999999,), }";
  std::vector<unsigned char> b = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)h.size(),
                                  0};
  b.insert(b.end(), h.begin(), h.end());
  b.resize(b.size() + 64);
  std::string huge = t.dir.path("huge.npy"), fifo = t.dir.path("pipe.npy");
  writeBytes(huge, b);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  CliRun r = runCli(t.prog, {"predict", "--checkpoint", t.ckpt, huge});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(huge + ": shape [999999999999] holds more than the limit of 4294967296 "
                       "elements"), std::string::npos) << r.err;
  r = runCli(t.prog, {"predict", "--checkpoint", t.ckpt, fifo});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(fifo + ": not a regular file"), std::string::npos) << r.err;
  r = runCli(t.prog, {"predict", "--checkpoint", t.ckpt, t.dir.root()});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(t.dir.root() + ": is a directory"), std::string::npos) << r.err;
}

TEST(Cli, LabelErrorsNameTheLabelsFile) {
  Trained t;
  Tensor y(DType::I64, {30});
  for (int64_t i = 0; i < 30; ++i)
    y.as<int64_t>()[i] = i == 17 ? 10 : i % 3;
  std::string bad = t.dir.path("bad_y.npy");
  ASSERT_TRUE(writeNpy(bad, y).isOk());
  ModelrtProgram p = t.prog;
  p.config.data.test_labels = bad.c_str();
  CliRun r = runCli(p, {"eval", "--checkpoint", t.ckpt});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(bad + ": sample 17: label 10 is outside [0, 3)"), std::string::npos)
      << r.err;
  // The images file given as the labels, and the two swapped.
  p.config.data.test_labels = t.testX.c_str();
  r = runCli(p, {"eval", "--checkpoint", t.ckpt});
  EXPECT_NE(r.err.find(t.testX + ": the labels file holds shape [30, 4], which looks like "
                       "samples (images); class labels need shape [N]"), std::string::npos)
      << r.err;
  p.config.data.test_inputs = t.testY.c_str();
  r = runCli(p, {"eval", "--checkpoint", t.ckpt});
  EXPECT_NE(r.err.find("the inputs and labels files look swapped: the inputs file " + t.testY +
                       " holds shape [30] (labels) and the labels file " + t.testX +
                       " holds shape [30, 4] (samples)"), std::string::npos) << r.err;
}

namespace {
void throwBadAlloc(void *, int32_t) { throw std::bad_alloc(); }
void throwRuntimeError(void *, int32_t) { throw std::runtime_error("boom"); }
} // namespace

TEST(Cli, ExceptionsAreErrorsNotAborts) {
  Fixture f;
  f.prog.set_threads = throwBadAlloc;
  CliRun r = runCli(f.prog, {"train", "--threads", "2", "--checkpoint-dir", f.dir.path("c")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("net: error: out of memory"), std::string::npos) << r.err;
  f.prog.set_threads = throwRuntimeError;
  r = runCli(f.prog, {"train", "--threads", "2", "--checkpoint-dir", f.dir.path("c")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("net: error: internal error: boom"), std::string::npos) << r.err;
}

TEST(Cli, GradcheckPrintsTheTableAndTheVerdictAndWritesNothing) {
  Trained t;
  auto before = t.snapshotFiles();
  CliRun r = runCli(t.prog, {"gradcheck"});
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_EQ(r.out.rfind("gradcheck softmax: batch of the first 16 samples of " + t.trainX +
                            "; parameters from the initialisation with seed 7\n", 0),
            0u) << r.out;
  EXPECT_NE(r.out.find("\nparameter  shape            checked kinks   max |a - n|   max rel err"
                       "  result\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nw          [4, 3]                12     0  "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\nb          [3]                    3     0  "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\ngradcheck: PASS: 15 of 15 elements of 2 parameter tensors match "
                       "their f32 central differences within 0.01\n"),
            std::string::npos)
      << r.out;
  // From the trained checkpoint, on 8 samples, 4 elements per tensor.
  r = runCli(t.prog, {"gradcheck", "--checkpoint", t.ckpt, "--batch", "8", "--samples", "4"});
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("batch of the first 8 samples of " + t.trainX + "; parameters from " +
                       t.ckpt + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nw          [4, 3]                 4     0  "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("gradcheck: PASS: 7 of 7 elements"), std::string::npos) << r.out;
  EXPECT_EQ(t.snapshotFiles(), before);
  r = runCli(t.prog, {"gradcheck", "--help"});
  EXPECT_EQ(r.status, 0);
  for (const char *opt : {"--checkpoint", "--batch", "--seed", "--samples", "--tolerance",
                          "--data-dir"})
    EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
}

TEST(Cli, GradcheckExitsWith1OnAWrongGradient) {
  Fixture fx;
  fx.prog.train_step = wrongTrainStep;
  CliRun r = runCli(fx.prog, {"gradcheck"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("\nw          [4, 3]                12     0  "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  FAIL\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  FAIL w[1, 2]: analytic "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\ngradcheck: FAIL: 1 of 2 parameter tensors differ from their f32 "
                       "central differences beyond 0.01 (w)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("net: error: gradcheck: gradients differ from their finite differences"),
            std::string::npos) << r.err;
}

TEST(Cli, TrainDumpsTheFirstStepsGradients) {
  Fixture fx;
  std::string dir = fx.dir.path("grads/sub"), file = dir + "/gradients.safetensors";
  CliRun r = runCli(fx.prog, {"train", "--epochs", "1", "--checkpoint-dir", fx.dir.path("a"),
                              "--dump-gradients", dir, "--device", "cpu"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("gradients of step 1 (loss "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", batch of 16) written to " + file + "\n"), std::string::npos) << r.out;
  std::string bytes = slurp(file);
  auto f = decodeSafetensors(bytes, file);
  ASSERT_TRUE(f.isOk()) << f.message();
  std::vector<std::string> names;
  for (const auto &[name, tensor] : f->tensors)
    names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"w", "b", "param/w", "param/b", "batch/inputs",
                                             "batch/labels"}));
  EXPECT_EQ(*f->meta("format"), "modelrt-gradients");
  EXPECT_EQ(*f->meta("model"), "softmax");
  EXPECT_EQ(*f->meta("step"), "0");
  EXPECT_EQ(*f->meta("batch.size"), "16");
  // The batch is the first of the run's shuffled epoch, with its indices.
  auto data = loadTrainingData(fx.prog, fx.prog.config);
  ASSERT_TRUE(data.isOk());
  LoaderConfig lc;
  lc.batchSize = 16, lc.seed = 7, lc.prefetch = 0;
  DataLoader loader(data->train, lc);
  Batch first;
  ASSERT_TRUE(loader.next(first));
  std::string indices;
  for (int64_t i = 0; i < 16; ++i)
    indices += (i ? "," : "") + std::to_string(loader.order()[size_t(i)]);
  EXPECT_EQ(*f->meta("batch.indices"), indices);
  const Tensor &x = f->tensors[4].second, &y = f->tensors[5].second;
  ASSERT_EQ(x.numBytes(), first.inputs.numBytes());
  EXPECT_EQ(std::memcmp(x.data(), first.inputs.data(), x.numBytes()), 0);
  EXPECT_EQ(std::memcmp(y.data(), first.labels.data(), y.numBytes()), 0);
  // The parameters are the initialisation's; the gradients train_step's there.
  ModelState init = initModelState(fx.prog, 7);
  for (size_t i = 0; i < 2; ++i)
    EXPECT_EQ(std::memcmp(f->tensors[2 + i].second.data(), init.params[i].data(),
                          init.params[i].size() * 4), 0) << i;
  std::vector<float> gw(12), gb(3);
  float *g[] = {gw.data(), gb.data()};
  double metrics[1] = {0};
  float loss = 0;
  trainStep(nullptr, init.paramPtrs.data(), nullptr, x.as<float>(), y.data(), 16, 0, 0, &loss,
            g, metrics);
  EXPECT_EQ(std::memcmp(f->tensors[0].second.data(), gw.data(), 12 * 4), 0);
  EXPECT_EQ(std::memcmp(f->tensors[1].second.data(), gb.data(), 3 * 4), 0);
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", double(loss));
  EXPECT_EQ(*f->meta("loss"), text);
  // The run is the one without the dump.
  r = runCli(fx.prog, {"train", "--epochs", "1", "--checkpoint-dir", fx.dir.path("b")});
  ASSERT_EQ(r.status, 0) << r.err;
  auto a = readCheckpoint(fx.dir.path("a/last.safetensors"));
  auto b = readCheckpoint(fx.dir.path("b/last.safetensors"));
  ASSERT_TRUE(a.isOk() && b.isOk());
  for (size_t i = 0; i < 2; ++i)
    EXPECT_EQ(std::memcmp(a->params[i].second.data(), b->params[i].second.data(),
                          a->params[i].second.numBytes()), 0) << i;
  // An existing dump is refused before anything is written; the flag replaces it.
  r = runCli(fx.prog, {"train", "--epochs", "1", "--checkpoint-dir", fx.dir.path("c"),
                       "--dump-gradients", dir});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("net: error: --dump-gradients: " + file + " already exists; remove it, "
                       "or pass --overwrite-gradients"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(access(fx.dir.path("c").c_str(), F_OK), 0);
  EXPECT_EQ(slurp(file), bytes);
  r = runCli(fx.prog, {"train", "--epochs", "1", "--checkpoint-dir", fx.dir.path("c"),
                       "--dump-gradients", dir, "--overwrite-gradients"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(file), bytes); // the same first step
}

TEST(Cli, DataDirRefusesTwoFilesThatWouldBecomeOne) {
  Fixture f;
  // train/x.npy and test/x.npy: --data-dir would read one file for both.
  ::mkdir(f.dir.path("train").c_str(), 0755);
  ::mkdir(f.dir.path("test").c_str(), 0755);
  std::string trainX = f.dir.path("train/x.npy"), trainY = f.dir.path("train/y.npy");
  std::string testX = f.dir.path("test/x.npy"), testY = f.dir.path("test/y.npy");
  ModelrtProgram p = f.prog;
  p.config.data.train_inputs = trainX.c_str(), p.config.data.train_labels = trainY.c_str();
  p.config.data.test_inputs = testX.c_str(), p.config.data.test_labels = testY.c_str();
  std::string dd = f.dir.path("dd");
  for (std::vector<std::string> args :
       {std::vector<std::string>{"train", "--data-dir", dd, "--checkpoint-dir", f.dir.path("c")},
        {"eval", "--data-dir", dd, "--checkpoint", f.dir.path("c/last.safetensors")}}) {
    CliRun r = runCli(p, args);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("--data-dir " + dd + ": the data block's '" + trainX + "' and '" +
                         testX + "' would both be read from " + dd +
                         "/x.npy; give them distinct file names"),
              std::string::npos)
        << r.err;
  }
  EXPECT_FALSE(fileExists(f.dir.path("c")));
}

TEST(Cli, EveryOverridingFlagNamesATrainOption) {
  // trainFlag looks each flag's values up by this name: a name that is no
  // option or setting of the train block would abort at run time.
  std::vector<std::string> names;
#define MODELRT_CLI_OVERRIDE(FLAG, ABI, OPTION) names.push_back(#OPTION);
#include "modelsupport/TrainConfig.def"
  ASSERT_EQ(names.size(), 4u);
  for (const std::string &name : names) {
    bool found = false;
    for (const modelsupport::OptionInfo &o : modelsupport::kOptions)
      found |= name == o.name;
    for (const modelsupport::SettingInfo &s : modelsupport::kSettings)
      found |= name == s.name;
    EXPECT_TRUE(found) << name;
  }
}
