//===- AST.cpp - Helpers of the AST node classes --------------------------===//
//
// Out-of-line helpers of AST.h: operator spellings, dotted paths and the
// source notation of types.
//
//===----------------------------------------------------------------------===//

#include "modelc/Frontend/AST.h"

#include "llvm/ADT/StringExtras.h"

using namespace modelc;

std::optional<std::string> MemberExpr::getDottedPath() const {
  if (auto *name = llvm::dyn_cast<NameExpr>(base.get()))
    return name->getName().str() + "." + this->name;
  if (auto *member = llvm::dyn_cast<MemberExpr>(base.get()))
    if (std::optional<std::string> prefix = member->getDottedPath())
      return *prefix + "." + this->name;
  return std::nullopt;
}

llvm::SMRange Arg::getRange() const {
  llvm::SMRange valueRange = value ? value->getRange() : llvm::SMRange();
  if (!isKeyword())
    return valueRange;
  return llvm::SMRange(keywordRange.Start,
                       value ? valueRange.End : keywordRange.End);
}

llvm::StringRef modelc::getBinaryOpSpelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "+";
  case BinaryOp::Sub: return "-";
  case BinaryOp::Mul: return "*";
  case BinaryOp::Div: return "/";
  case BinaryOp::MatMul: return "@";
  case BinaryOp::Pow: return "**";
  case BinaryOp::Eq: return "==";
  case BinaryOp::Ne: return "!=";
  case BinaryOp::Lt: return "<";
  case BinaryOp::Le: return "<=";
  case BinaryOp::Gt: return ">";
  case BinaryOp::Ge: return ">=";
  }
  return "?";
}

std::string TypeRef::str() const {
  std::string s = name;
  if (!hasShape)
    return s;
  s += "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      s += ", ";
    const Dim &d = dims[i];
    switch (d.kind) {
    case Dim::Kind::Ellipsis: s += "..."; break;
    case Dim::Kind::Symbol: s += d.name; break;
    case Dim::Kind::Constant: s += std::to_string(d.value); break;
    }
  }
  return s + "]";
}

std::string Import::getDottedPath() const { return llvm::join(path, "."); }
