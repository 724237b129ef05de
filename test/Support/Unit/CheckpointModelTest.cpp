//===- CheckpointModelTest.cpp - Whose checkpoint a model may load --------===//
//
// otherModelNote: silent when the names agree or one is unknown, and the
// note's words otherwise.
//
//===----------------------------------------------------------------------===//
#include "modelsupport/CheckpointModel.h"

#include <gtest/gtest.h>

using modelsupport::otherModelNote;

TEST(CheckpointModel, TheSameNameOrAnUnknownOneNeedsNoNote) {
  EXPECT_EQ(otherModelNote("ck.safetensors", "MLP", "MLP"), "");
  EXPECT_EQ(otherModelNote("ck.safetensors", "", "MLP"), "");
  EXPECT_EQ(otherModelNote("ck.safetensors", "MLP", ""), "");
}

TEST(CheckpointModel, AnotherNameIsNamedWithThePath) {
  EXPECT_EQ(otherModelNote("runs/a/last.safetensors", "MLP", "Classifier"),
            "runs/a/last.safetensors is a checkpoint of model 'MLP', not of "
            "'Classifier'; its "
            "tensors fit this model, so it is used");
}
