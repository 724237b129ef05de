//===- CsvTest.cpp - The shared CSV tokenizer -----------------------------===//
//
// Unit tests of modelsupport/Csv.h: field splitting and quoting, columns,
// the line reader's BOM, CRLF and blank-line rules, NUL bytes, field
// counts, number parsing and class-index labels.
// The readers built on it are tested in test/runtime (ReadersTest) and
// test/Sema (csv-*.model).
//
//===----------------------------------------------------------------------===//

#include "modelsupport/Csv.h"

#include <gtest/gtest.h>

using namespace modelsupport::csv;

namespace {

/// The texts of `line`'s fields (the split must succeed).
std::vector<std::string> texts(std::string_view line) {
  std::vector<Field> fields;
  size_t errorColumn = 0;
  EXPECT_TRUE(splitLine(line, fields, errorColumn)) << line;
  std::vector<std::string> out;
  for (const Field &f : fields)
    out.push_back(f.text);
  return out;
}

TEST(CsvTokenizer, SplitsOnCommasOutsideQuotes) {
  using V = std::vector<std::string>;
  EXPECT_EQ(texts("a,b,c"), (V{"a", "b", "c"}));
  EXPECT_EQ(texts("\"a,b\",c"), (V{"a,b", "c"}));
  EXPECT_EQ(texts("\"say \"\"hi\"\"\",x"), (V{"say \"hi\"", "x"}));
  EXPECT_EQ(texts("\"\",,"), (V{"", "", ""}));
  EXPECT_EQ(texts(" a , b"), (V{" a ", " b"}));
  // Text after the closing quote is kept up to the comma.
  EXPECT_EQ(texts("\"a\"b,c"), (V{"ab", "c"}));
}

TEST(CsvTokenizer, ColumnsAreBytePositionsOfFieldStarts) {
  std::vector<Field> fields;
  size_t errorColumn = 0;
  ASSERT_TRUE(splitLine("1,\"x,y\",22", fields, errorColumn));
  ASSERT_EQ(fields.size(), 3u);
  EXPECT_EQ(fields[0].column, 1u);
  EXPECT_EQ(fields[1].column, 3u);
  EXPECT_EQ(fields[2].column, 9u);
}

TEST(CsvTokenizer, UnterminatedQuoteNamesItsColumn) {
  std::vector<Field> fields;
  size_t errorColumn = 0;
  EXPECT_FALSE(splitLine("1,2,\"open, never closed", fields, errorColumn));
  EXPECT_EQ(errorColumn, 5u);
  EXPECT_FALSE(splitLine("\"a\"\"", fields, errorColumn));
  EXPECT_EQ(errorColumn, 1u);
}

TEST(CsvTokenizer, NulByteIsAnErrorAtItsColumn) {
  std::vector<Field> fields;
  size_t errorColumn = 0;
  std::string_view line("1,2\0.0,3", 7);
  EXPECT_FALSE(splitLine(line, fields, errorColumn));
  EXPECT_EQ(errorColumn, 4u);
  EXPECT_STREQ(splitError(line, errorColumn), "NUL byte in a CSV file");
  EXPECT_FALSE(splitLine("\"open", fields, errorColumn));
  EXPECT_STREQ(splitError("\"open", errorColumn), "unterminated quoted field");
}

TEST(CsvTokenizer, FieldCountColumnIsFirstExtraFieldOrLineEnd) {
  std::vector<Field> fields;
  size_t errorColumn = 0;
  ASSERT_TRUE(splitLine("1,22,333", fields, errorColumn));
  EXPECT_EQ(fieldCountColumn(fields, "1,22,333", 2), 6u);
  ASSERT_TRUE(splitLine("1", fields, errorColumn));
  EXPECT_EQ(fieldCountColumn(fields, "1", 2), 2u);
}

TEST(CsvTokenizer, ClassIndexLabels) {
  long long v = -1;
  EXPECT_EQ(classIndexError(" 7 ", v), nullptr);
  EXPECT_EQ(v, 7);
  EXPECT_STREQ(classIndexError("1.5", v), "is not an integer class index");
  EXPECT_STREQ(classIndexError("", v), "is not an integer class index");
  EXPECT_STREQ(classIndexError("-1", v), "is a negative class index");
  EXPECT_STREQ(classIndexError("12345678901234567890", v),
               "is out of range for a class index (64-bit)");
  EXPECT_TRUE(isIntegerText("+3"));
  EXPECT_FALSE(isIntegerText("3e0"));
  EXPECT_FALSE(isIntegerText("-"));
}

TEST(CsvTokenizer, LineReaderSkipsBomCrAndBlankLines) {
  LineReader lines("\xEF\xBB\xBF"
                   "h1,h2\r\n"
                   "\r\n"
                   " \t\n"
                   "1,2\r\n"
                   "3,4");
  ASSERT_TRUE(lines.next());
  EXPECT_EQ(lines.line(), "h1,h2");
  EXPECT_EQ(lines.lineNumber(), 1u);
  ASSERT_TRUE(lines.next());
  EXPECT_EQ(lines.line(), "1,2");
  EXPECT_EQ(lines.lineNumber(), 4u);
  ASSERT_TRUE(lines.next());
  EXPECT_EQ(lines.line(), "3,4");
  EXPECT_EQ(lines.lineNumber(), 5u);
  EXPECT_FALSE(lines.next());
}

TEST(CsvTokenizer, NamesAreTrimmedAndFound) {
  std::vector<Field> fields;
  size_t errorColumn = 0;
  ASSERT_TRUE(splitLine(" a ,\"b, c\"\t", fields, errorColumn));
  std::vector<std::string> header = names(fields);
  EXPECT_EQ(header, (std::vector<std::string>{"a", "b, c"}));
  EXPECT_EQ(find(header, "b, c"), 1);
  EXPECT_EQ(find(header, "c"), -1);
}

TEST(CsvTokenizer, NumbersAreWholeTrimmedFields) {
  double d;
  EXPECT_TRUE(parseDouble(" 4e1 ", d));
  EXPECT_EQ(d, 40.0);
  EXPECT_FALSE(parseDouble("1.x", d));
  EXPECT_FALSE(parseDouble("  ", d));
  // Decimal only: strtod's hexadecimal forms are not numbers in a CSV.
  EXPECT_FALSE(parseDouble("0x10", d));
  EXPECT_FALSE(parseDouble("-0X1p3", d));
  EXPECT_TRUE(parseDouble("-1.5E-3", d));
  EXPECT_EQ(d, -1.5e-3);
  long long i;
  EXPECT_TRUE(parseInteger("\t-12", i));
  EXPECT_EQ(i, -12);
  EXPECT_FALSE(parseInteger("2.5", i));
  EXPECT_FALSE(parseInteger("99999999999999999999", i));
}

} // namespace
