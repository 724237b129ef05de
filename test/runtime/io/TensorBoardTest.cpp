//===- TensorBoardTest.cpp - Event files, decoded by an independent reader -===//
//
// The reader below is written from the TFRecord and protobuf wire-format
// descriptions: a bitwise CRC-32C (no table), the mask, varints, and the
// Event / Summary.Value / SessionLog fields. Every record's two CRCs are
// checked. TensorBoard's rule for a session's start (it drops the events
// already read at that step or later) is applied here to a resumed run's
// files.
//
//===----------------------------------------------------------------------===//
#include "SoftmaxProgram.h"

#include "modelrt/io/TensorBoard.h"

#include <dirent.h>

using namespace modelrt;
using namespace modelrt_test;

namespace {
uint32_t bitwiseCrc32c(const unsigned char *p, size_t n) {
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k)
      crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1)));
  }
  return ~crc;
}
uint32_t masked(const unsigned char *p, size_t n) {
  uint32_t c = bitwiseCrc32c(p, n);
  return ((c >> 15) | (c << 17)) + 0xa282ead8u;
}

/// One decoded Event.
struct Event {
  double wallTime = 0;
  int64_t step = 0;
  std::string fileVersion, tag;
  float value = 0;
  bool hasValue = false;
  int64_t sessionStatus = -1; ///< SessionLog.status (1: START); -1: no session_log
};

uint64_t varint(const std::string &b, size_t &pos) {
  uint64_t v = 0;
  for (int shift = 0; pos < b.size(); shift += 7) {
    unsigned char c = b[pos++];
    v |= uint64_t(c & 0x7F) << shift;
    if (!(c & 0x80))
      break;
  }
  return v;
}

/// Calls \p onField(field, wire, bytes or fixed bytes, varint value) per field.
template <typename F> bool fields(const std::string &b, F onField) {
  size_t pos = 0;
  while (pos < b.size()) {
    uint64_t key = varint(b, pos);
    int field = int(key >> 3), wire = int(key & 7);
    uint64_t v = 0;
    std::string bytes;
    if (wire == 0)
      v = varint(b, pos);
    else if (wire == 1 || wire == 5)
      bytes = b.substr(pos, wire == 1 ? 8 : 4), pos += wire == 1 ? 8 : 4;
    else if (wire == 2)
      v = varint(b, pos), bytes = b.substr(pos, v), pos += v;
    else
      return false;
    onField(field, wire, bytes, v);
  }
  return pos == b.size();
}

Event decodeEvent(const std::string &data) {
  Event e;
  EXPECT_TRUE(fields(data, [&](int f, int wire, const std::string &bytes, uint64_t v) {
    if (f == 1 && wire == 1)
      std::memcpy(&e.wallTime, bytes.data(), 8);
    else if (f == 2 && wire == 0)
      e.step = int64_t(v);
    else if (f == 3 && wire == 2)
      e.fileVersion = bytes;
    else if (f == 7 && wire == 2)
      fields(bytes, [&](int sf, int sw, const std::string &, uint64_t sv) {
        if (sf == 1 && sw == 0)
          e.sessionStatus = int64_t(sv);
      });
    else if (f == 5 && wire == 2)
      fields(bytes, [&](int sf, int, const std::string &value, uint64_t) {
        if (sf == 1)
          fields(value, [&](int vf, int vw, const std::string &vb, uint64_t) {
            if (vf == 1 && vw == 2)
              e.tag = vb;
            if (vf == 2 && vw == 5)
              std::memcpy(&e.value, vb.data(), 4), e.hasValue = true;
          });
      });
    else
      ADD_FAILURE() << "unexpected Event field " << f;
  }));
  return e;
}

/// Reads every record of an event file, checking both CRCs of each.
std::vector<Event> readEvents(const std::string &path) {
  std::string b = slurp(path);
  std::vector<Event> out;
  size_t pos = 0;
  while (pos < b.size()) {
    EXPECT_GE(b.size() - pos, 16u) << "truncated record at " << pos;
    if (b.size() - pos < 16)
      break;
    const unsigned char *p = reinterpret_cast<const unsigned char *>(b.data()) + pos;
    uint64_t len = 0;
    uint32_t lenCrc = 0, dataCrc = 0;
    for (int i = 7; i >= 0; --i)
      len = len << 8 | p[i];
    for (int i = 3; i >= 0; --i)
      lenCrc = lenCrc << 8 | p[8 + i];
    EXPECT_EQ(lenCrc, masked(p, 8)) << "length CRC of the record at " << pos;
    if (len > b.size() - pos - 16)
      return ADD_FAILURE() << "record length " << len, out;
    for (int i = 3; i >= 0; --i)
      dataCrc = dataCrc << 8 | p[12 + len + i];
    EXPECT_EQ(dataCrc, masked(p + 12, len)) << "data CRC of the record at " << pos;
    out.push_back(decodeEvent(b.substr(pos + 12, len)));
    pos += 16 + len;
  }
  return out;
}

/// The event files in \p dir, in name order (TensorBoard's reading order).
std::vector<std::string> eventFilesIn(const std::string &dir) {
  std::vector<std::string> found;
  DIR *d = opendir(dir.c_str());
  while (struct dirent *e = d ? readdir(d) : nullptr)
    if (std::string(e->d_name).rfind("events.out.tfevents.", 0) == 0)
      found.push_back(dir + "/" + e->d_name);
  if (d)
    closedir(d);
  std::sort(found.begin(), found.end());
  return found;
}

/// The scalars TensorBoard shows for the event files of \p dir: each tag's
/// (step, value) in reading order, where a SessionLog START at step S first
/// drops every scalar read so far at step S or later (TensorBoard's
/// purge_orphaned_data, on by default).
std::map<std::string, std::vector<std::pair<int64_t, float>>> shownScalars(const std::string &dir) {
  std::map<std::string, std::vector<std::pair<int64_t, float>>> shown;
  for (const std::string &path : eventFilesIn(dir))
    for (const Event &e : readEvents(path)) {
      if (e.sessionStatus == 1)
        for (auto &[tag, points] : shown)
          points.erase(std::remove_if(points.begin(), points.end(),
                                      [&](const auto &p) { return p.first >= e.step; }),
                       points.end());
      if (e.hasValue)
        shown[e.tag].push_back({e.step, e.value});
    }
  return shown;
}

std::string eventFileIn(const std::string &dir) {
  std::string found;
  DIR *d = opendir(dir.c_str());
  while (d && (found.empty())) {
    struct dirent *e = readdir(d);
    if (!e)
      break;
    if (std::string(e->d_name).rfind("events.out.tfevents.", 0) == 0)
      found = dir + "/" + e->d_name;
  }
  if (d)
    closedir(d);
  return found;
}
} // namespace

TEST(TensorBoard, Crc32cMatchesTheKnownCheckValue) {
  const char *s = "123456789";
  EXPECT_EQ(crc32c(s, 9), 0xE3069283u); // the CRC-32C check value
  EXPECT_EQ(bitwiseCrc32c(reinterpret_cast<const unsigned char *>(s), 9), 0xE3069283u);
}

TEST(TensorBoard, RecordsDecodeWithAnIndependentReader) {
  TempDir tmp;
  std::string path;
  {
    auto w = EventWriter::create(tmp.root(), 9);
    ASSERT_TRUE(w.isOk()) << w.message();
    path = (*w)->path();
    ASSERT_TRUE((*w)->addScalar("epoch/train_loss", 0.625f, 8).isOk());
    ASSERT_TRUE((*w)->addScalar("a/longer/tag", -3.5e-7f, int64_t(1) << 40).isOk());
  }
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  EXPECT_NE(path.find("/events.out.tfevents."), std::string::npos);
  std::string tail = std::string(host) + ".modelrt"; // ours: --overwrite removes it
  EXPECT_EQ(path.substr(path.size() - tail.size()), tail);
  EXPECT_TRUE(isEventFileName(path.substr(path.rfind('/') + 1)));
  std::vector<Event> ev = readEvents(path);
  ASSERT_EQ(ev.size(), 4u);
  EXPECT_EQ(ev[0].fileVersion, "brain.Event:2");
  EXPECT_GT(ev[0].wallTime, 1.6e9);
  EXPECT_EQ(ev[1].sessionStatus, 1); // START
  EXPECT_EQ(ev[1].step, 9);
  EXPECT_FALSE(ev[1].hasValue);
  EXPECT_EQ(ev[2].tag, "epoch/train_loss");
  EXPECT_EQ(ev[2].value, 0.625f);
  EXPECT_EQ(ev[2].step, 8);
  EXPECT_EQ(ev[3].tag, "a/longer/tag");
  EXPECT_EQ(ev[3].value, -3.5e-7f);
  EXPECT_EQ(ev[3].step, int64_t(1) << 40);
  EXPECT_GE(ev[3].wallTime, ev[2].wallTime);
  // The same Event written out by hand from the proto definitions:
  // wall_time (1, fixed64), step (2, varint), session_log (7, bytes)
  // holding status (1, varint) = START (1).
  std::string start = encodeSessionStartEvent(0.5, 300);
  EXPECT_EQ(start, std::string("\x09\x00\x00\x00\x00\x00\x00\xe0\x3f"
                               "\x10\xac\x02"
                               "\x3a\x02\x08\x01",
                               16));
}

TEST(TensorBoard, TrainingLogsEpochAndStepScalars) {
  Fixture fx;
  RunOptions o = fx.out("ckpt");
  o.logDir = fx.dir.path("logs/run1"); // created with its parents
  o.logEverySteps = 4;
  fx.prog.config.epochs = 2;
  ASSERT_TRUE(trainProgram(fx.prog, fx.prog.config, o).isOk());
  std::string path = eventFileIn(o.logDir);
  ASSERT_FALSE(path.empty());
  std::vector<Event> ev = readEvents(path);
  ASSERT_FALSE(ev.empty());
  EXPECT_EQ(ev[0].fileVersion, "brain.Event:2");
  EXPECT_EQ(ev[1].sessionStatus, 1);
  EXPECT_EQ(ev[1].step, 1); // a fresh run's first step
  std::map<std::string, std::vector<Event>> byTag;
  for (size_t i = 2; i < ev.size(); ++i) {
    EXPECT_TRUE(ev[i].hasValue);
    byTag[ev[i].tag].push_back(ev[i]);
  }
  for (const char *tag : {"epoch/train_loss", "epoch/train_accuracy", "epoch/val_loss",
                          "epoch/val_accuracy", "epoch/lr", "epoch/throughput"}) {
    ASSERT_EQ(byTag[tag].size(), 2u) << tag;
    EXPECT_EQ(byTag[tag][0].step, 8) << tag; // 8 steps per epoch
    EXPECT_EQ(byTag[tag][1].step, 16) << tag;
  }
  EXPECT_EQ(byTag["step/loss"].size(), 4u); // steps 4, 8, 12, 16
  EXPECT_EQ(byTag["step/lr"].size(), 4u);
  EXPECT_EQ(byTag["step/throughput"].size(), 4u);
  EXPECT_EQ(byTag["step/loss"][2].step, 12);
  EXPECT_GT(byTag["epoch/throughput"][0].value, 0.0f);
  // The epoch scalars are the metrics log's values.
  std::ifstream csv(o.logDir + "/metrics.csv");
  std::string line;
  std::getline(csv, line);
  for (int e = 0; e < 2; ++e) {
    std::getline(csv, line);
    double v[7];
    ASSERT_EQ(std::sscanf(line.c_str(), "%lf,%lf,%lf,%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3],
                          &v[4], &v[5], &v[6]), 7);
    EXPECT_EQ(byTag["epoch/lr"][e].value, float(v[2]));
    EXPECT_NEAR(byTag["epoch/train_loss"][e].value, v[3], 1e-6);
    EXPECT_NEAR(byTag["epoch/val_accuracy"][e].value, v[6], 1e-6);
  }
}

TEST(TensorBoard, AResumedRunReplacesWhatTheInterruptedRunLoggedAfterItsCheckpoint) {
  // Run A logs 3 epochs (8 steps each, a step/* row every 4 steps); run B
  // is resumed from A's epoch 1 checkpoint (step 8) into the same log
  // directory, as after a kill during epoch 2, with another learning rate
  // so that its values differ. TensorBoard then shows A's scalars up to
  // step 8 and B's after it, each step once.
  Fixture fx;
  ModelrtTrainConfig c = fx.prog.config;
  c.epochs = 3;
  RunOptions o = fx.out("ck");
  o.logEverySteps = 4, o.keep = 0;
  ASSERT_TRUE(trainProgram(fx.prog, c, o).isOk());
  auto first = shownScalars(o.checkpointDir);
  std::string one = fx.dir.path("epoch1.safetensors");
  writeText(one, slurp(fx.dir.path("ck/epoch-000001.safetensors")));
  RunOptions resumed = o;
  resumed.resume = one;
  c.optimizer.lr = 0.01;
  auto r = trainProgram(fx.prog, c, resumed);
  ASSERT_TRUE(r.isOk()) << r.message();
  auto shown = shownScalars(o.checkpointDir);
  const std::vector<int64_t> steps4 = {4, 8, 12, 16, 20, 24}, epochs = {8, 16, 24};
  for (const char *tag : {"step/loss", "step/lr", "epoch/train_loss", "epoch/lr"}) {
    const std::vector<int64_t> &want = std::string(tag).rfind("step/", 0) == 0 ? steps4 : epochs;
    ASSERT_EQ(shown[tag].size(), want.size()) << tag;
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(shown[tag][i].first, want[i]) << tag;
      // Up to step 8, run A's values; after it, run B's (another rate).
      bool fromA = want[i] <= 8;
      EXPECT_EQ(shown[tag][i].second == first[tag][i].second, fromA)
          << tag << " at step " << want[i];
    }
  }
}
