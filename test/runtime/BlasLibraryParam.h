//===- BlasLibraryParam.h - Runtime tests run with each BLAS library -------===//
//
// The fixture of the runtime tests that run once with oneDNN and once with
// OpenBLAS active (BlasTest, ConvTest, ConvMaxPoolTest, ConvBackwardTest,
// ConvFromMaxPoolTest): each instantiates it as
//   INSTANTIATE_TEST_SUITE_P(Libraries, Suite, kBothBlasLibraries,
//                            blasLibraryName);
//
//===----------------------------------------------------------------------===//
#ifndef MODELRT_TEST_BLASLIBRARYPARAM_H
#define MODELRT_TEST_BLASLIBRARYPARAM_H

#include "modelrt/core/Blas.h"

#include <gtest/gtest.h>

#include <string>

namespace modelrt_test {

/// Runs each test with its parameter's library active, and oneDNN (the
/// default) after.
class WithBlasLibrary : public ::testing::TestWithParam<modelrt::BlasLibrary> {
protected:
  void SetUp() override {
    modelrt::Status s = modelrt::useBlasLibrary(GetParam());
    ASSERT_TRUE(s.isOk()) << s.message();
  }
  void TearDown() override {
    ASSERT_TRUE(modelrt::useBlasLibrary(modelrt::BlasLibrary::OneDnn).isOk());
  }
};

/// The two libraries, oneDNN first.
inline const auto kBothBlasLibraries =
    ::testing::Values(modelrt::BlasLibrary::OneDnn, modelrt::BlasLibrary::OpenBlas);

/// The test name suffix of a library: "OneDnn" or "OpenBlas".
inline std::string blasLibraryName(const ::testing::TestParamInfo<modelrt::BlasLibrary> &info) {
  return info.param == modelrt::BlasLibrary::OneDnn ? "OneDnn" : "OpenBlas";
}

} // namespace modelrt_test

#endif // MODELRT_TEST_BLASLIBRARYPARAM_H
