//===- CheckpointTest.cpp - Safetensors checkpoints, atomicity, rotation --===//
#include "TestUtil.h"
#include "modelrt/io/Checkpoint.h"
#include "modelrt/io/CheckpointStore.h"
#include "modelrt/io/Json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace modelrt;
using namespace modelrt_test;

/// Sets every epoch counter of \p d to \p epoch (as a run's checkpoint has).
static void setEpoch(CheckpointData &d, int64_t epoch) {
  d.epoch = d.schedule.epoch = d.loader.epoch = epoch;
}

static CheckpointData sample() {
  CheckpointData d;
  d.modelName = "mlp";
  d.fingerprint = modelFingerprint({{"w", {2, 3}, DType::F32}}, {{"count", {1}, DType::I64}});
  d.epoch = 3, d.step = 42;
  Tensor w(DType::F32, {2, 3});
  for (int i = 0; i < 6; ++i)
    w.as<float>()[i] = i * 0.25f - 1;
  d.params.emplace_back("w", w);
  Tensor s(DType::I64, {1});
  s.as<int64_t>()[0] = 9;
  d.state.emplace_back("count", s);
  d.optimizerKind = 1, d.optimizerSteps = 42;
  d.firstMoments = {{1, 2, 3, 4, 5, 6}};
  d.secondMoments = {{}};
  d.schedule.epoch = 3, d.schedule.step = 42, d.schedule.plateauLr = 0.05;
  d.schedule.hasBest = true;
  d.schedule.best = 1.0 / 3.0;
  d.earlyBest = 0.7, d.earlyBad = 1, d.earlyHasBest = true;
  d.bestLoss = 0.1, d.hasBestLoss = true;
  d.loader.epoch = 3, d.loader.batchIndex = 0, d.loader.rngState = {1, 2, 3, 0xFFFFFFFFFFFFFFFFULL};
  d.metrics = {{"loss", 0.5}, {"accuracy", 0.875}};
  return d;
}

static std::string slurp(const std::string &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(Checkpoint, RoundTrip) {
  TempDir tmp;
  CheckpointData d = sample();
  ASSERT_TRUE(writeCheckpoint(tmp.path("c.safetensors"), d).isOk());
  auto r = readCheckpoint(tmp.path("c.safetensors"));
  ASSERT_TRUE(r.isOk()) << r.message();
  EXPECT_EQ(r->modelName, "mlp");
  EXPECT_EQ(r->fingerprint, d.fingerprint);
  EXPECT_EQ(r->epoch, 3);
  EXPECT_EQ(r->step, 42);
  ASSERT_EQ(r->params.size(), 1u);
  EXPECT_EQ(r->params[0].first, "w");
  EXPECT_EQ(r->params[0].second.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_FLOAT_EQ(r->params[0].second.as<float>()[5], 0.25f);
  EXPECT_EQ(r->state[0].second.as<int64_t>()[0], 9);
  EXPECT_EQ(r->firstMoments[0], d.firstMoments[0]);
  EXPECT_TRUE(r->secondMoments[0].empty());
  EXPECT_EQ(r->optimizerKind, 1);
  EXPECT_EQ(r->optimizerSteps, 42);
  EXPECT_DOUBLE_EQ(r->schedule.plateauLr, 0.05);
  EXPECT_EQ(r->schedule.best, 1.0 / 3.0); // doubles round-trip exactly
  EXPECT_TRUE(r->schedule.hasBest);
  EXPECT_EQ(r->earlyBad, 1);
  EXPECT_EQ(r->bestLoss, 0.1);
  EXPECT_TRUE(r->hasBestLoss);
  EXPECT_EQ(r->loader.rngState, d.loader.rngState);
  EXPECT_EQ(r->metrics, d.metrics);
  // The bytes are stable: encoding again gives the same file.
  EXPECT_EQ(encodeCheckpoint(*r), slurp(tmp.path("c.safetensors")));
}

TEST(Checkpoint, SafetensorsLayout) {
  std::string b = encodeCheckpoint(sample());
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i)
    n = n << 8 | (unsigned char)b[i];
  EXPECT_EQ(n % 8, 0u);
  auto h = parseJson(b.substr(8, n), "header");
  ASSERT_TRUE(h.isOk()) << h.message();
  const JsonValue *w = h->find("param/w");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->find("dtype")->text, "F32");
  EXPECT_EQ(w->find("shape")->items.size(), 2u);
  EXPECT_EQ(w->find("data_offsets")->items[0].number, 0);
  EXPECT_EQ(w->find("data_offsets")->items[1].number, 24);
  EXPECT_TRUE(h->find("state/count"));
  EXPECT_TRUE(h->find("optim/w/m"));
  EXPECT_FALSE(h->find("optim/w/v")); // unused by this optimizer
  const JsonValue *meta = h->find("__metadata__");
  ASSERT_TRUE(meta);
  EXPECT_EQ(meta->find("format_version")->text, "7");
  EXPECT_EQ(meta->find("checksum")->text.size(), 18u);
  EXPECT_EQ(meta->find("epoch")->text, "3");
  EXPECT_EQ(meta->find("schema")->text,
            "{\"params\":[{\"name\":\"w\",\"dtype\":\"F32\",\"shape\":[2, 3]}],"
            "\"state\":[{\"name\":\"count\",\"dtype\":\"I64\",\"shape\":[1]}]}");
  EXPECT_EQ(b.size(), 8 + n + 24 + 8 + 24); // w, count, optim/w/m
  // The first tensor's bytes follow the header: w[1] = -0.75f.
  float w1;
  std::memcpy(&w1, b.data() + 8 + n + 4, 4);
  EXPECT_EQ(w1, -0.75f);
}

TEST(Checkpoint, AnIndependentPythonReaderReadsIt) {
  ASSERT_EQ(access("/usr/bin/python3", X_OK), 0) << "/usr/bin/python3 is required by this test";
  TempDir tmp;
  ASSERT_TRUE(writeCheckpoint(tmp.path("c.safetensors"), sample()).isOk());
  writeText(tmp.path("read.py"), R"(import json, struct, sys
f = open(sys.argv[1], 'rb')
n, = struct.unpack('<Q', f.read(8))
header = json.loads(f.read(n))
data = f.read()
meta = header.pop('__metadata__')
sizes = {'F32': 4, 'F64': 8, 'I32': 4, 'I64': 8, 'U8': 1}
codes = {'F32': 'f', 'F64': 'd', 'I32': 'i', 'I64': 'q', 'U8': 'B'}
for name, t in sorted(header.items()):
    b, e = t['data_offsets']
    count = 1
    for d in t['shape']:
        count *= d
    assert e - b == count * sizes[t['dtype']], name
    vals = struct.unpack('<%d%s' % (count, codes[t['dtype']]), data[b:e])
    print(name, t['dtype'], t['shape'], ' '.join(repr(v) for v in vals))
print('epoch', meta['epoch'], 'model', meta['model'], 'step', meta['step'])
)");
  std::string cmd = "/usr/bin/python3 '" + tmp.path("read.py") + "' '" +
                    tmp.path("c.safetensors") + "' 2>&1";
  FILE *pipe = popen(cmd.c_str(), "r");
  ASSERT_TRUE(pipe);
  std::string out;
  char buf[256];
  while (size_t k = fread(buf, 1, sizeof buf, pipe))
    out.append(buf, k);
  ASSERT_EQ(pclose(pipe), 0) << out;
  EXPECT_NE(out.find("param/w F32 [2, 3] -1.0 -0.75 -0.5 -0.25 0.0 0.25\n"), std::string::npos)
      << out;
  EXPECT_NE(out.find("state/count I64 [1] 9\n"), std::string::npos) << out;
  EXPECT_NE(out.find("optim/w/m F32 [2, 3] 1.0 2.0 3.0 4.0 5.0 6.0\n"), std::string::npos) << out;
  EXPECT_NE(out.find("epoch 3 model mlp step 42"), std::string::npos) << out;
}

TEST(Checkpoint, FingerprintDependsOnTable) {
  uint64_t a = modelFingerprint({{"w", {2, 3}, DType::F32}}, {});
  EXPECT_EQ(a, modelFingerprint({{"w", {2, 3}, DType::F32}}, {}));
  EXPECT_NE(a, modelFingerprint({{"w", {3, 2}, DType::F32}}, {}));
  EXPECT_NE(a, modelFingerprint({{"v", {2, 3}, DType::F32}}, {}));
  EXPECT_NE(a, modelFingerprint({{"w", {2, 3}, DType::F64}}, {}));
  EXPECT_NE(a, modelFingerprint({}, {{"w", {2, 3}, DType::F32}}));
  EXPECT_EQ(fingerprintToString(0xabc), "0x0000000000000abc");
}

TEST(Checkpoint, OtherModelNamesEveryMismatchedTensor) {
  CheckpointData d = sample();
  std::vector<TensorInfo> params = {{"w", {2, 4}, DType::F32}, {"b", {4}, DType::F32}};
  Status s = checkCheckpointFits(d, params, {}, "cnn", "c.safetensors");
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.message(),
            "c.safetensors: checkpoint of model 'mlp' (fingerprint " +
                fingerprintToString(d.fingerprint) + ") does not fit model 'cnn' (fingerprint " +
                fingerprintToString(modelFingerprint(params, {})) + "): 3 problem(s):\n"
                "  tensor 'param/w' is f32 [2, 3] in the checkpoint, the model needs f32 [2, 4]\n"
                "  missing tensor 'param/b' (f32 [4])\n"
                "  unexpected tensor 'state/count' (i64 [1])");
  EXPECT_TRUE(checkCheckpointFits(d, {{"w", {2, 3}, DType::F32}}, {{"count", {1}, DType::I64}},
                                  "mlp", "c.safetensors")
                  .isOk());
}

/// The bytes of a checkpoint whose JSON header is replaced by \p header.
static std::string withHeader(const std::string &header, const std::string &data) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i)
    out[i] = char((uint64_t(header.size()) >> (8 * i)) & 0xFF);
  return out + header + data;
}

TEST(Checkpoint, CorruptAndTruncatedFilesAreErrors) {
  std::string good = encodeCheckpoint(sample());
  auto expectError = [](const std::string &bytes, const std::string &fragment) {
    auto r = decodeCheckpoint(bytes, "x.st");
    ASSERT_FALSE(r.isOk());
    EXPECT_NE(r.message().find("x.st" + fragment), std::string::npos) << r.message();
  };
  expectError(good.substr(0, 5), ": truncated safetensors file: 5 bytes");
  expectError(good.substr(0, 100), ": byte 0: header length");
  expectError(good.substr(0, good.size() - 3), ": tensor 'optim/w/m': data_offsets [32, 56] "
                                               "outside the 53 data bytes");
  expectError(good + "z", ": 1 data bytes after the tensors' ends");
  std::string b = good;
  b[8] = '['; // the header is no longer an object
  expectError(b, ": JSON header at byte 8: byte");
  std::string f4 = std::string(4, '\0');
  expectError(withHeader("{\"a\":{\"dtype\":\"BF16\",\"shape\":[2],\"data_offsets\":[0,4]}}", f4),
              ": tensor 'a': unsupported dtype BF16");
  expectError(withHeader("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,4]}}", f4),
              ": tensor 'a': 4 data bytes for shape [2] of F32");
  expectError(withHeader("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}",
                         f4 + f4),
              ": tensor 'a' starts at data byte 4, expected 0 (overlap or hole)");
  expectError(withHeader("{\"__metadata__\":{\"format_version\":\"4\"}}", ""),
              ": checkpoint format version 4, this runtime reads versions 5 to 7");
  expectError(withHeader("{\"__metadata__\":{\"format_version\":\"5\"}}", ""),
              ": __metadata__ lacks field 'format'");
}

TEST(Checkpoint, AFileNoCheckpointIsRefusedFromItsFirstBytesAndAFailedReadIsAnError) {
  // A 3 GiB file of zeros (sparse: nothing is written to the disk) has a
  // header length of 0; one whose first bytes claim a header past its end
  // is refused the same way, from those first bytes.
  TempDir tmp;
  std::string zeros = tmp.path("zeros.safetensors"), big = tmp.path("big.safetensors");
  ASSERT_EQ(::truncate((writeText(zeros, ""), zeros).c_str(), off_t(3) << 30), 0);
  auto r = readCheckpoint(zeros);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message(), zeros + ": byte 0: header length 0 is too short for the JSON header: "
                                 "not a safetensors file");
  writeText(big, std::string("\xff\xff\xff\xff\x00\x00\x00\x00", 8));
  ASSERT_EQ(::truncate(big.c_str(), off_t(1) << 30), 0);
  r = readCheckpoint(big);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message(), big + ": byte 0: header length 4294967295 exceeds the file (1073741824 "
                               "bytes): truncated or not a safetensors file");
  // A read that fails (EIO) is an error with its reason, not an exception.
  r = readCheckpoint("/proc/self/mem");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message(), "/proc/self/mem: cannot read checkpoint: Input/output error");
  // A FIFO is refused, not waited on (opening it for reading would block
  // until a writer came).
  std::string fifo = tmp.path("pipe.safetensors");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  r = readCheckpoint(fifo);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message(), fifo + ": cannot read checkpoint: not a regular file (a device, pipe or "
                                "socket)");
}

TEST(Checkpoint, NonFiniteParametersAreErrors) {
  CheckpointData d = sample();
  d.params[0].second.as<float>()[4] = NAN; // sealed by the checksum: a valid file
  auto r = decodeCheckpoint(encodeCheckpoint(d), "x.st");
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message(), "x.st: tensor 'param/w' element 4 is NaN; training never writes a "
                         "non-finite value, so the file was changed after it was written");
  d.params[0].second.as<float>()[4] = -INFINITY;
  r = decodeCheckpoint(encodeCheckpoint(d), "x.st");
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.message().find("element 4 is infinite"), std::string::npos) << r.message();
}

TEST(Checkpoint, ADirectoryIsNotACheckpoint) {
  TempDir tmp;
  auto r = readCheckpoint(tmp.root());
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.message(), tmp.root() + ": cannot read checkpoint: not a regular file (a directory)");
  auto none = readCheckpoint(tmp.path("none.safetensors"));
  ASSERT_FALSE(none.isOk());
  EXPECT_EQ(none.message(),
            tmp.path("none.safetensors") + ": cannot open checkpoint: No such file or directory");
}

TEST(Checkpoint, FailedWriteKeepsThePreviousFile) {
  TempDir tmp;
  std::string path = tmp.path("c.safetensors");
  CheckpointData d = sample();
  ASSERT_TRUE(writeCheckpoint(path, d).isOk());
  std::string before = slurp(path);
  // Simulate a full disk: a file-size limit smaller than the new checkpoint.
  CheckpointData big = d;
  big.params[0].second = Tensor(DType::F32, {1000, 100});
  big.firstMoments.clear();
  struct rlimit old;
  getrlimit(RLIMIT_FSIZE, &old);
  auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old;
  small.rlim_cur = 4096;
  setrlimit(RLIMIT_FSIZE, &small);
  Status s = writeCheckpoint(path, big);
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, oldHandler);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("the previous file is kept"), std::string::npos) << s.message();
  EXPECT_EQ(slurp(path), before);
  // No temporary file is left behind.
  EXPECT_EQ(std::system(("test $(ls -A '" + tmp.root() + "' | wc -l) -eq 1").c_str()), 0);
  EXPECT_FALSE(writeCheckpoint(tmp.path("no/such/dir/c.safetensors"), d).isOk());
}

TEST(Checkpoint, KilledBetweenWriteAndRenameKeepsTheOldCheckpoint) {
  TempDir tmp;
  std::string path = tmp.path("last.safetensors");
  CheckpointData d = sample();
  ASSERT_TRUE(writeCheckpoint(path, d).isOk());
  std::string before = slurp(path);
  CheckpointData next = d;
  setEpoch(next, 4);
  next.params[0].second.as<float>()[0] = 123.0f;
  testing::FLAGS_gtest_death_test_style = "threadsafe";
  EXPECT_EXIT(
      {
        setenv(kCrashBeforeRenameEnv, "1", 1);
        (void)writeCheckpoint(path, next);
        std::fprintf(stderr, "the hook did not kill the process\n");
        std::_Exit(0);
      },
      testing::KilledBySignal(SIGKILL), "");
  EXPECT_EQ(slurp(path), before);
  auto r = readCheckpoint(path);
  ASSERT_TRUE(r.isOk()) << r.message();
  EXPECT_EQ(r->epoch, 3);
  EXPECT_EQ(r->params[0].second.as<float>()[0], -1.0f);
  // Without the hook the same write replaces it.
  ASSERT_TRUE(writeCheckpoint(path, next).isOk());
  EXPECT_EQ(readCheckpoint(path)->epoch, 4);
}

TEST(CheckpointStore, KeepsTheLastNAndTheBest) {
  TempDir tmp;
  CheckpointPolicy policy{tmp.root(), 2};
  for (int64_t e = 1; e <= 5; ++e) {
    CheckpointData d = sample();
    setEpoch(d, e);
    ASSERT_TRUE(saveEpochCheckpoint(policy, d, /*isBest=*/e == 2).isOk());
  }
  EXPECT_EQ(listEpochCheckpoints(tmp.root()),
            (std::vector<std::string>{"epoch-000004.safetensors", "epoch-000005.safetensors"}));
  EXPECT_EQ(slurp(tmp.path("last.safetensors")), slurp(tmp.path("epoch-000005.safetensors")));
  auto best = readCheckpoint(tmp.path("best.safetensors"));
  ASSERT_TRUE(best.isOk()) << best.message();
  EXPECT_EQ(best->epoch, 2);
  EXPECT_EQ(epochCheckpointName(12), "epoch-000012.safetensors");
  // keep 0 keeps every epoch file.
  TempDir all;
  for (int64_t e = 1; e <= 4; ++e) {
    CheckpointData d = sample();
    setEpoch(d, e);
    ASSERT_TRUE(saveEpochCheckpoint({all.root(), 0}, d, false).isOk());
  }
  EXPECT_EQ(listEpochCheckpoints(all.root()).size(), 4u);
  EXPECT_NE(access(all.path("best.safetensors").c_str(), F_OK), 0);
}
