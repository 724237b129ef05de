//===- ReadersTest.cpp - IDX, CSV and NPY readers --------------------------===//
#include "TestUtil.h"
#include "modelrt/data/Readers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sys/stat.h>

using namespace modelrt;
using namespace modelrt_test;

/// An IDX u8 file of shape [2, 2, 3] with values 0..11.
static std::vector<unsigned char> idxU8() {
  std::vector<unsigned char> b = {0, 0, 0x08, 3, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 3};
  for (int i = 0; i < 12; ++i)
    b.push_back(static_cast<unsigned char>(i));
  return b;
}

TEST(Idx, PlainAndGzip) {
  TempDir tmp;
  for (bool gz : {false, true}) {
    std::string p = tmp.path(gz ? "a.idx.gz" : "a.idx");
    writeBytes(p, idxU8(), gz);
    auto t = readIdx(p);
    ASSERT_TRUE(t.isOk()) << t.message();
    EXPECT_EQ(t->dtype(), DType::U8);
    EXPECT_EQ(t->shape(), (std::vector<int64_t>{2, 2, 3}));
    EXPECT_EQ(t->as<uint8_t>()[11], 11);
  }
}

TEST(Idx, BigEndianFloatAndInt) {
  TempDir tmp;
  // f32 [2]: 1.0 = 0x3F800000, -2.5 = 0xC0200000.
  writeBytes(tmp.path("f.idx"), {0, 0, 0x0D, 1, 0, 0, 0, 2, 0x3F, 0x80, 0, 0, 0xC0, 0x20, 0, 0});
  auto f = readIdx(tmp.path("f.idx"));
  ASSERT_TRUE(f.isOk()) << f.message();
  EXPECT_FLOAT_EQ(f->as<float>()[0], 1.0f);
  EXPECT_FLOAT_EQ(f->as<float>()[1], -2.5f);
  // i16 [1]: 0xFFFE = -2.
  writeBytes(tmp.path("s.idx"), {0, 0, 0x0B, 1, 0, 0, 0, 1, 0xFF, 0xFE});
  auto s = readIdx(tmp.path("s.idx"));
  ASSERT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(s->as<int32_t>()[0], -2);
}

TEST(Idx, Errors) {
  TempDir tmp;
  auto expectError = [&](std::vector<unsigned char> bytes, const std::string &fragment) {
    std::string p = tmp.path("bad.idx");
    writeBytes(p, bytes);
    auto t = readIdx(p);
    ASSERT_FALSE(t.isOk());
    EXPECT_NE(t.message().find(p), std::string::npos) << t.message();
    EXPECT_NE(t.message().find(fragment), std::string::npos) << t.message();
  };
  expectError({1, 0, 8, 1, 0, 0, 0, 1, 5}, "byte 0: not an IDX file");
  expectError({0, 0, 0x07, 1, 0, 0, 0, 1, 5}, "byte 2: unknown IDX element type 0x07");
  expectError({0, 0, 8, 2, 0, 0, 0, 1}, "file ends at byte 8, 2 dimensions need 12");
  expectError({0, 0}, "truncated IDX header: the file ends at byte 2, the header needs 4");
  expectError({0, 0, 8, 0}, "byte 3: IDX rank is 0");
  expectError({0, 0, 8, 2, 0, 0, 0, 1, 0, 0, 0, 0},
              "byte 8: dimension 1 is 0: IDX dimensions are at least 1");
  expectError({0, 0, 8, 1, 0x80, 0, 0, 1}, "byte 4: dimension 0 is 2147483649, above the limit "
                                           "of 2^31");
  auto truncated = idxU8();
  truncated.resize(20);
  expectError(truncated, "truncated IDX data: file ends at byte 20, shape [2, 2, 3] needs 28");
  auto trailing = idxU8();
  trailing.push_back(0);
  expectError(trailing, "byte 28: 1 unexpected trailing bytes");
  auto missing = readIdx(tmp.path("nope.idx"));
  EXPECT_NE(missing.message().find("nope.idx: cannot open"), std::string::npos);
}

TEST(Csv, SelectColumnsAndLabel) {
  TempDir tmp;
  std::string p = tmp.path("t.csv");
  writeText(p, "a,b,\"label\",c\n1.5,2,0,x\n\n-3,4e1,2,y\r\n");
  auto t = readCsv(p, {{"b", DType::F32}, {"a", DType::F32}}, {"label"}, DType::I64);
  ASSERT_TRUE(t.isOk()) << t.message();
  EXPECT_EQ(t->inputs.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_FLOAT_EQ(t->inputs.as<float>()[0], 2.0f);
  EXPECT_FLOAT_EQ(t->inputs.as<float>()[1], 1.5f);
  EXPECT_FLOAT_EQ(t->inputs.as<float>()[2], 40.0f);
  EXPECT_EQ(t->labels.dtype(), DType::I64);
  EXPECT_EQ(t->labels.as<int64_t>()[1], 2);
}

TEST(Csv, ClassNamesAreReadAsTheirIndex) {
  TempDir tmp;
  std::string p = tmp.path("t.csv");
  writeText(p, "x,species\n1,virginica\n2, setosa\n3,\"versicolor\"\n");
  const std::vector<std::string> names = {"setosa", "versicolor", "virginica"};
  auto t = readCsv(p, {{"x", DType::F32}}, {"species"}, DType::I64, names);
  ASSERT_TRUE(t.isOk()) << t.message();
  EXPECT_EQ(std::vector<int64_t>(t->labels.as<int64_t>(), t->labels.as<int64_t>() + 3),
            (std::vector<int64_t>{2, 0, 1}));
  writeText(p, "x,species\n1,virginica\n2,daisy\n");
  auto bad = readCsv(p, {{"x", DType::F32}}, {"species"}, DType::I64, names);
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.message(), p + ":3:3: label column 'species': 'daisy' is not one of the classes "
                               "[setosa, versicolor, virginica]");
}

TEST(Csv, AllColumnsByDefault) {
  TempDir tmp;
  std::string p = tmp.path("t.csv");
  writeText(p, "x,y,target\n1,2,0.5\n3,4,1.5\n");
  auto t = readCsv(p, {}, {"target"}, DType::F32);
  ASSERT_TRUE(t.isOk()) << t.message();
  EXPECT_EQ(t->inputs.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_FLOAT_EQ(t->inputs.as<float>()[3], 4.0f);
  EXPECT_FLOAT_EQ(t->labels.as<float>()[1], 1.5f);
}

TEST(Csv, SeveralLabelColumns) {
  TempDir tmp;
  std::string p = tmp.path("t.csv");
  writeText(p, "y2,x,y1,z\n1.5,1,2,3\n-2,4,5e-1,6\n");
  auto t = readCsv(p, {}, {"y1", "y2"}, DType::F32);
  ASSERT_TRUE(t.isOk()) << t.message();
  EXPECT_EQ(t->inputs.shape(), (std::vector<int64_t>{2, 2})); // x, z
  EXPECT_FLOAT_EQ(t->inputs.as<float>()[1], 3.0f);
  EXPECT_EQ(t->labels.dtype(), DType::F32);
  EXPECT_EQ(t->labels.shape(), (std::vector<int64_t>{2, 2})); // y1, y2 per row
  const float want[] = {2, 1.5f, 0.5f, -2};
  for (int i = 0; i < 4; ++i)
    EXPECT_FLOAT_EQ(t->labels.as<float>()[i], want[i]) << i;
  writeText(p, "y2,x,y1,z\n1.5,1,2,3\nnan?,4,5,6\n");
  auto bad = readCsv(p, {}, {"y1", "y2"}, DType::F32);
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.message().find(p + ":3:1: label column 'y2': 'nan?' is not a valid f32"),
            std::string::npos)
      << bad.message();
  auto missing = readCsv(p, {}, {"y1", "w"}, DType::F32);
  EXPECT_NE(missing.message().find(p + ":1: label column 'w' not found"), std::string::npos)
      << missing.message();
}

TEST(Csv, Errors) {
  TempDir tmp;
  std::string p = tmp.path("bad.csv");
  auto check = [&](const std::string &text, std::vector<CsvColumn> cols, const std::string &label,
                   const std::string &fragment) {
    writeText(p, text);
    auto t = readCsv(p, cols, {label}, DType::I64);
    ASSERT_FALSE(t.isOk());
    EXPECT_NE(t.message().find(p + fragment), std::string::npos) << t.message();
  };
  check("a,b\n1,2\n1,zz\n", {}, "b", ":3:3: label column 'b': 'zz' is not a valid i64");
  check("a,b\n1,2\n1.x,2\n", {}, "b", ":3:1: column 'a': '1.x' is not a valid f32");
  check("a,b\n1,2\n0x10,2\n", {}, "b", ":3:1: column 'a': '0x10' is not a valid f32");
  check("a,b\n1,2\n1,2,3\n", {}, "b", ":3:5: expected 2 fields (as in the header), found 3");
  check("a,b\n1\n", {}, "b", ":2:2: expected 2 fields");
  check("a,b\n1,2\n", {{"q", DType::F32}}, "b", ":1: column 'q' not found");
  check("a,b\n1,2\n", {}, "lab", ":1: label column 'lab' not found");
  check("a,b\n\"1,2\n", {}, "b", ":2:1: unterminated quoted field");
  check("a,b\n", {}, "b", ": no data rows");
  check("a,b\n1,2.5\n", {}, "b", ":2:3: label column 'b': '2.5' is not a valid i64");
  // Columns are read by name: a selected name twice in the header is refused,
  // as a label and among the default features.
  check("b,a,b\n1,2,3\n", {}, "b", ":1: label column 'b' appears 2 times in the header");
  check("a,b,a\n1,2,3\n", {}, "b", ":1: column 'a' appears 2 times in the header");
}

// test/Inputs/quoted-bom-crlf.csv, which test/e2e/csv-quoted.test compiles
// a model on: a BOM, CRLF endings, a blank line, quoted fields with commas
// and doubled quotes. Every row keeps its four columns.
TEST(Csv, SharedQuotedBomCrlfFile) {
  std::string p = std::string(MODELC_SHARED_TEST_INPUTS) + "/quoted-bom-crlf.csv";
  auto t = readCsv(p, {{"x", DType::F32}, {"y", DType::F32}}, {"label"}, DType::I64);
  ASSERT_TRUE(t.isOk()) << t.message();
  EXPECT_EQ(t->inputs.shape(), (std::vector<int64_t>{4, 2}));
  const float want[] = {1.5f, 10, 2.5f, 20, 4, 60, 5, 30};
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(t->inputs.as<float>()[i], want[i]) << i;
  const int64_t labels[] = {0, 1, 2, 1};
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(t->labels.as<int64_t>()[i], labels[i]) << i;
  // Every column but the label, by default: the note is not a number.
  auto all = readCsv(p, {}, {"label"}, DType::I64);
  ASSERT_FALSE(all.isOk());
  EXPECT_NE(all.message().find(p + ":2:7: column 'note, with comma': 'say \"hi\", ok' is not a "
                                   "valid f32"),
            std::string::npos)
      << all.message();
}

TEST(Npy, ReadsNumpyWrittenFiles) {
  auto f4 = readNpy(inputPath("f4_2x3.npy"));
  ASSERT_TRUE(f4.isOk()) << f4.message();
  EXPECT_EQ(f4->shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_FLOAT_EQ(f4->as<float>()[5], 1.5f); // 5 * 0.5 - 1
  auto f8 = readNpy(inputPath("f8_3.npy"));
  ASSERT_TRUE(f8.isOk());
  EXPECT_DOUBLE_EQ(f8->as<double>()[2], 1e300);
  auto i4 = readNpy(inputPath("i4_2x2.npy"));
  ASSERT_TRUE(i4.isOk());
  EXPECT_EQ(i4->as<int32_t>()[3], 2147483647);
  auto i8 = readNpy(inputPath("i8_4.npy"));
  ASSERT_TRUE(i8.isOk());
  EXPECT_EQ(i8->as<int64_t>()[2], int64_t(1) << 40);
  auto u1 = readNpy(inputPath("u1_2x2x2.npy"));
  ASSERT_TRUE(u1.isOk());
  EXPECT_EQ(u1->shape(), (std::vector<int64_t>{2, 2, 2}));
  EXPECT_EQ(u1->as<uint8_t>()[7], 210);
  auto v2 = readNpy(inputPath("v2_f4_3.npy"));
  ASSERT_TRUE(v2.isOk()) << v2.message();
  EXPECT_FLOAT_EQ(v2->as<float>()[2], 3.0f);
  auto sc = readNpy(inputPath("scalar.npy"));
  ASSERT_TRUE(sc.isOk());
  EXPECT_EQ(sc->rank(), 0);
  EXPECT_FLOAT_EQ(sc->as<float>()[0], 3.5f);
}

TEST(Npy, Errors) {
  auto fortran = readNpy(inputPath("fortran_2x3.npy"));
  EXPECT_NE(fortran.message().find("fortran_2x3.npy: NPY array is in Fortran order"),
            std::string::npos) << fortran.message();
  auto be = readNpy(inputPath("bigendian.npy"));
  EXPECT_NE(be.message().find("unsupported NPY dtype '>f4'"), std::string::npos) << be.message();
  auto f2 = readNpy(inputPath("f2.npy"));
  EXPECT_NE(f2.message().find("unsupported NPY dtype '<f2'"), std::string::npos);
  std::vector<unsigned char> bytes = {'x', 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0};
  EXPECT_NE(parseNpy(bytes, "m.npy").message().find("m.npy: byte 0: not an NPY file"),
            std::string::npos);
  std::string h = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  bytes = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)h.size(), 0};
  bytes.insert(bytes.end(), h.begin(), h.end());
  bytes.resize(bytes.size() + 8); // 2 of 3 floats
  EXPECT_NE(parseNpy(bytes, "t.npy").message().find("t.npy: truncated NPY data"),
            std::string::npos);
  std::string bad = "{'descr': '<f4', 'fortran_order': False, 'shape': (a,), }";
  bytes = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)bad.size(), 0};
  bytes.insert(bytes.end(), bad.begin(), bad.end());
  EXPECT_NE(parseNpy(bytes, "s.npy").message().find("'shape' missing or invalid"),
            std::string::npos);
  // numpy reads the last of a repeated key: (2,) here, where the first
  // occurrence says (3,). Neither is taken.
  std::string twice = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'shape': (2,), }";
  bytes = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)twice.size(), 0};
  bytes.insert(bytes.end(), twice.begin(), twice.end());
  bytes.resize(bytes.size() + 12);
  EXPECT_NE(parseNpy(bytes, "d.npy")
                .message()
                .find("d.npy: byte 10: bad NPY header: 'shape' is given twice"),
            std::string::npos)
      << parseNpy(bytes, "d.npy").message();
  // A quoted 'shape' that is not a key (here inside a structured dtype,
  // which is refused for itself) is no repeat.
  std::string field = "{'descr': [('shape', '<f4')], 'fortran_order': False, 'shape': (3,), }";
  bytes = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)field.size(), 0};
  bytes.insert(bytes.end(), field.begin(), field.end());
  bytes.resize(bytes.size() + 12);
  EXPECT_NE(parseNpy(bytes, "f.npy").message().find("unsupported NPY dtype"), std::string::npos)
      << parseNpy(bytes, "f.npy").message();
}

TEST(Npy, WriteThenReadRoundTrip) {
  TempDir tmp;
  Tensor t(DType::I64, {3, 1});
  for (int i = 0; i < 3; ++i)
    t.as<int64_t>()[i] = -i * 1000;
  ASSERT_TRUE(writeNpy(tmp.path("r.npy"), t).isOk());
  auto r = readNpy(tmp.path("r.npy"));
  ASSERT_TRUE(r.isOk()) << r.message();
  EXPECT_EQ(r->shape(), t.shape());
  EXPECT_EQ(r->as<int64_t>()[2], -2000);
}

/// NPY bytes with header \p shape ("(3,)") for <f4 and \p dataBytes zero bytes.
static std::vector<unsigned char> npyClaiming(const std::string &shape, size_t dataBytes) {
  std::string h = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
  std::string head = std::string("\x93NUMPY\x01\x00", 8) + char(h.size()) + '\0' + h;
  std::vector<unsigned char> b(head.size() + dataBytes);
  std::copy(head.begin(), head.end(), b.begin());
  return b;
}

TEST(Npy, ClaimedSizeIsCheckedBeforeAllocating) {
  // Over the element limit: refused with the shape and the limit, no bad_alloc.
  auto huge = parseNpy(npyClaiming("(999999999999,)", 64), "h.npy");
  ASSERT_FALSE(huge.isOk());
  EXPECT_NE(huge.message().find("h.npy: shape [999999999999] holds more than the limit of "
                                "4294967296 elements"), std::string::npos) << huge.message();
  // A product that overflows 64 bits is caught, not wrapped.
  auto wrap = parseNpy(npyClaiming("(4294967296, 4294967296, 16)", 64), "w.npy");
  EXPECT_NE(wrap.message().find("w.npy: shape [4294967296, 4294967296, 16] holds more than"),
            std::string::npos) << wrap.message();
  // Within the limits but not in the file: the numbers are named.
  auto big = parseNpy(npyClaiming("(1000000000,)", 64), "b.npy");
  EXPECT_NE(big.message().find("b.npy: truncated NPY data: file ends at byte 140, shape "
                               "[1000000000] needs 4000000076"), std::string::npos)
      << big.message();
}

TEST(Idx, ClaimedSizeIsCheckedBeforeAllocating) {
  TempDir tmp;
  std::string p = tmp.path("h.idx");
  // u8 [2^31, 2^31, 4]: 2^64 elements, which wraps to 0 in 64 bits.
  writeBytes(p, {0, 0, 8, 3, 0x80, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 4, 1, 2, 3});
  auto t = readIdx(p);
  ASSERT_FALSE(t.isOk());
  EXPECT_NE(t.message().find(p + ": shape [2147483648, 2147483648, 4] holds more than the "
                             "limit of 4294967296 elements"), std::string::npos) << t.message();
}

TEST(Readers, NonRegularFilesAreRefusedWithoutBlocking) {
  TempDir tmp;
  std::string fifo = tmp.path("pipe.npy");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // Opening a FIFO with no writer would block: stat refuses it first.
  for (auto read : {readNpy, readIdx, readImage}) {
    auto t = read(fifo);
    ASSERT_FALSE(t.isOk());
    EXPECT_NE(t.message().find(fifo + ": not a regular file"), std::string::npos)
        << t.message();
    auto d = read(tmp.root());
    EXPECT_NE(d.message().find(tmp.root() + ": is a directory"), std::string::npos) << d.message();
  }
  auto csv = readCsv(fifo, {}, {}, DType::I64);
  EXPECT_NE(csv.message().find(fifo + ": not a regular file"), std::string::npos)
      << csv.message();
  auto dev = readNpy("/dev/zero");
  EXPECT_NE(dev.message().find("/dev/zero: not a regular file"), std::string::npos)
      << dev.message();
}
