//===- AutodiffTorchTest.cpp - Model gradients against PyTorch ------------===//
//
// Differentiates a 784->32->10 MLP and the small SimpleCNN of GradCheckUtil.h
// (parameters read with mdl.param) with --mdl-autodiff, evaluates the
// gradient function with the reference evaluator and compares loss and
// every parameter gradient with PyTorch (mlp_reference.py and
// cnn_reference.py, run by /usr/bin/python3): relative error <= 1e-4.
// Fails (never skips) when PyTorch cannot be imported.
//
//===----------------------------------------------------------------------===//

#include "GradCheckUtil.h"

#include <cstdio>
#include <sstream>

using namespace modelc::test;

namespace {

const char *kMlp = R"mlir(
mdl.parameter @w1 : tensor<784x32xf64> {init = #mdl.init<zeros>}
mdl.parameter @b1 : tensor<32xf64> {init = #mdl.init<zeros>}
mdl.parameter @w2 : tensor<32x10xf64> {init = #mdl.init<zeros>}
mdl.parameter @b2 : tensor<10xf64> {init = #mdl.init<zeros>}
func.func @f(%x: tensor<?x784xf64>, %labels: tensor<?xi64>) -> tensor<f64> {
  %w1 = mdl.param @w1 : tensor<784x32xf64>
  %b1 = mdl.param @b1 : tensor<32xf64>
  %w2 = mdl.param @w2 : tensor<32x10xf64>
  %b2 = mdl.param @b2 : tensor<10xf64>
  %0 = mdl.matmul %x, %w1 : tensor<?x784xf64>, tensor<784x32xf64> -> tensor<?x32xf64>
  %1 = mdl.add %0, %b1 : tensor<?x32xf64>, tensor<32xf64> -> tensor<?x32xf64>
  %2 = mdl.relu %1 : tensor<?x32xf64>
  %3 = mdl.matmul %2, %w2 : tensor<?x32xf64>, tensor<32x10xf64> -> tensor<?x10xf64>
  %4 = mdl.add %3, %b2 : tensor<?x10xf64>, tensor<10xf64> -> tensor<?x10xf64>
  %l = mdl.cross_entropy mean %4, %labels : tensor<?x10xf64>, tensor<?xi64> -> tensor<f64>
  return %l : tensor<f64>
}
)mlir";

/// Runs the reference script `script` (in the test directory); returns its
/// lines "name values..." by name.
std::map<std::string, std::vector<double>> runTorch(const std::string &script,
                                                    std::string &error) {
  std::string command = "/usr/bin/python3 " MODELC_AUTODIFF_TEST_DIR "/" +
                        script + " 2>&1";
  FILE *pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[4096];
  while (pipe && fgets(buffer, sizeof buffer, pipe))
    output += buffer;
  int status = pipe ? pclose(pipe) : -1;
  std::map<std::string, std::vector<double>> result;
  if (status != 0) {
    error = "PyTorch reference failed (run scripts/setup.sh if torch is "
            "missing): " + output;
    return result;
  }
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    for (double v; fields >> v;)
      result[name].push_back(v);
  }
  return result;
}

/// Differentiates `source` and compares the loss and the gradients of
/// `params` (in declaration order) with the output of `script`.
void compareWithTorch(const char *source, const std::string &script,
                      const std::vector<std::pair<std::string, Tensor>> &params,
                      const std::vector<Tensor> &args) {
  std::string error;
  auto torch = runTorch(script, error);
  ASSERT_TRUE(error.empty()) << error;
  GradModule m(source);
  ASSERT_TRUE(m.module);
  ASSERT_TRUE(m.differentiate());
  Evaluator eval(std::map<std::string, Tensor>(params.begin(), params.end()));
  std::vector<Tensor> out;
  ASSERT_TRUE(eval.run(m.fn("g"), args, out, error)) << error;
  ASSERT_EQ(out.size(), params.size() + 1);
  ASSERT_EQ(torch["loss"].size(), 1u);
  EXPECT_NEAR(out[0].data[0], torch["loss"][0], 1e-4 * torch["loss"][0]);
  for (auto [p, param] : llvm::enumerate(params)) {
    const std::vector<double> &ref = torch[param.first];
    const Tensor &grad = out[p + 1];
    ASSERT_EQ(static_cast<int64_t>(ref.size()), grad.numel()) << param.first;
    double diff = 0, norm = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
      diff += std::pow(grad.data[i] - ref[i], 2);
      norm += ref[i] * ref[i];
    }
    EXPECT_GT(norm, 0.0) << param.first << " has an all-zero reference gradient";
    EXPECT_LE(std::sqrt(diff / norm), 1e-4) << "relative error of " << param.first;
  }
}

TEST(AutodiffTorch, MlpGradientsMatchPyTorch) {
  Tensor labels({4});
  labels.data = {3, 7, 1, 9};
  compareWithTorch(kMlp, "mlp_reference.py",
                   {{"w1", testData({784, 32}, 1, 0.05)},
                    {"b1", testData({32}, 2, 0.1)},
                    {"w2", testData({32, 10}, 3, 0.2)},
                    {"b2", testData({10}, 4, 0.1)}},
                   {testData({4, 784}, 0), labels});
}

TEST(AutodiffTorch, SimpleCnnGradientsMatchPyTorch) {
  compareWithTorch(kSimpleCnn, "cnn_reference.py", simpleCnnParams(),
                   simpleCnnInputs());
}

} // namespace
