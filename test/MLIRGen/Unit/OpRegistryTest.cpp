//===- OpRegistryTest.cpp - Tests of the front half's op registry ---------===//
//
// Checks Ops.def against the tables that hang off it: every op has a
// unique name that round-trips through lookupOpKind, an mdl emitter, and,
// when a builtin produces it, exactly one entry of the builtin table with a
// signature and a shape rule (handler); and the typed attributes (OpAttrs)
// round-trip through a node's attribute list in Ops.def's order and kinds.
// What each emitter builds is checked by the lit tests of test/MLIRGen.
//
//===----------------------------------------------------------------------===//

#include "Elaborator.h"
#include "FunctionEmitter.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

using namespace modelc;
using namespace modelc::sema;

namespace {

/// Every OpKind, in order.
std::vector<OpKind> allOps() {
  std::vector<OpKind> ops;
  for (unsigned i = 0; i < kNumOpKinds; ++i)
    ops.push_back(OpKind(i));
  return ops;
}

TEST(OpRegistry, NamesAreUniqueAndRoundTrip) {
  std::set<std::string> seen;
  for (OpKind k : allOps()) {
    llvm::StringRef name = getOpKindName(k);
    EXPECT_FALSE(name.empty()) << "op " << unsigned(k);
    EXPECT_TRUE(seen.insert(name.str()).second) << "repeated name " << name.str();
    EXPECT_EQ(lookupOpKind(name), k) << name.str();
  }
  EXPECT_EQ(seen.size(), size_t(kNumOpKinds));
  EXPECT_EQ(lookupOpKind("no_such_op"), std::nullopt);
  EXPECT_EQ(getOpKindName(OpKind::Conv2D), "conv2d");
  EXPECT_EQ(lookupOpKind("max_pool2d"), OpKind::MaxPool2D);
}

TEST(OpRegistry, EveryOpHasAnEmitter) {
  for (OpKind k : allOps())
    EXPECT_NE(getOpEmitter(k), nullptr) << getOpKindName(k).str();
}

TEST(OpRegistry, BuiltinOpsHaveOneBuiltinEntry) {
  std::map<OpKind, unsigned> producers;
  std::set<std::string> names;
  for (const BuiltinInfo &b : getBuiltins()) {
    ASSERT_TRUE(b.op.has_value()) << b.name;
    EXPECT_NE(b.handler, nullptr) << b.name;
    EXPECT_TRUE(names.insert(b.name).second) << "repeated builtin " << b.name;
    EXPECT_TRUE(llvm::StringRef(b.signature).starts_with(std::string(b.name) +
                                                         "("))
        << b.signature;
    EXPECT_EQ(getOpSource(*b.op), OpSource::Builtin)
        << b.name << " produces " << getOpKindName(*b.op).str()
        << ", whose source in Ops.def is not Builtin";
    ++producers[*b.op];
    EXPECT_EQ(lookupBuiltin(b.name), &b);
  }
  for (OpKind k : allOps()) {
    if (getOpSource(k) == OpSource::Builtin) {
      EXPECT_EQ(producers[k], 1u) << getOpKindName(k).str();
    }
  }
}

TEST(OpRegistry, AttributeNamesAreUniquePerOp) {
  for (OpKind k : allOps()) {
    std::set<std::string> seen;
    for (llvm::StringRef a : getOpAttrNames(k))
      EXPECT_TRUE(seen.insert(a.str()).second)
          << getOpKindName(k).str() << "." << a.str();
  }
  EXPECT_TRUE(getOpAttrNames(OpKind::Add).empty());
  EXPECT_EQ(getOpAttrNames(OpKind::Conv2D),
            (std::vector<llvm::StringRef>{"stride", "padding", "dilation",
                                          "groups"}));
}

/// A node of kind `K` carrying `attrs`.
template <OpKind K> Node nodeWith(const OpAttrs<K> &attrs) {
  Node n;
  n.kind = K;
  n.attrs = attrs.toList();
  return n;
}

/// The names of a node's attributes.
std::vector<llvm::StringRef> attrNames(const Node &n) {
  std::vector<llvm::StringRef> names;
  for (const NodeAttr &a : n.attrs)
    names.push_back(a.name);
  return names;
}

TEST(OpRegistry, WindowAttributesRoundTrip) {
  Node n = nodeWith(OpAttrs<OpKind::Conv2D>{{2, 2}, {1, 1}, {3, 3}, 4});
  EXPECT_EQ(attrNames(n), getOpAttrNames(OpKind::Conv2D));
  EXPECT_EQ(n.attrs[0].kind, NodeAttr::Kind::Ints);
  EXPECT_EQ(n.attrs[3].kind, NodeAttr::Kind::Int);
  OpAttrs<OpKind::Conv2D> a = attrsOf<OpKind::Conv2D>(n);
  EXPECT_EQ(a.stride, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(a.padding, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(a.dilation, (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(a.groups, 4);
}

TEST(OpRegistry, NumberAndTextAttributesRoundTrip) {
  Node n = nodeWith(
      OpAttrs<OpKind::BatchNorm>{1e-5, 0.1, "bn_0.running_mean", "bn_0.rv"});
  EXPECT_EQ(attrNames(n), getOpAttrNames(OpKind::BatchNorm));
  EXPECT_EQ(n.attrs[0].kind, NodeAttr::Kind::Number);
  EXPECT_EQ(n.attrs[2].kind, NodeAttr::Kind::Text);
  OpAttrs<OpKind::BatchNorm> a = attrsOf<OpKind::BatchNorm>(n);
  EXPECT_EQ(a.epsilon, 1e-5);
  EXPECT_EQ(a.momentum, 0.1);
  EXPECT_EQ(a.running_mean, "bn_0.running_mean");
  EXPECT_EQ(a.running_var, "bn_0.rv");
}

TEST(OpRegistry, ReductionAttributesRoundTrip) {
  Node n = nodeWith(OpAttrs<OpKind::ReduceMean>{{0, 2}, 1});
  EXPECT_EQ(attrNames(n), getOpAttrNames(OpKind::ReduceMean));
  OpAttrs<OpKind::ReduceMean> a = attrsOf<OpKind::ReduceMean>(n);
  EXPECT_EQ(a.axes, (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(a.keepdims, 1);
  EXPECT_TRUE(nodeWith(OpAttrs<OpKind::Relu>{}).attrs.empty());
}

} // namespace
