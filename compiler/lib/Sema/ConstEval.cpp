//===- ConstEval.cpp - Constant expressions of configuration blocks -------===//
//
// The small evaluator used by data and train blocks: literals, named
// constants, string concatenation (`root + "/file"`), arithmetic on numbers
// (Fold.h's rules, as in model bodies) and lists. Anything else is an error
// at the expression.
//
//===----------------------------------------------------------------------===//

#include "Config.h"
#include "Fold.h"

using namespace modelc;
using namespace modelc::sema;

Value sema::evalConst(DiagnosticEngine &diags, const Expr &e,
                      const ConstEnv &env) {
  Value v;
  v.range = e.getRange();
  if (auto *i = llvm::dyn_cast<IntLitExpr>(&e)) {
    v.kind = Value::Kind::Int;
    v.i = i->getValue();
  } else if (auto *f = llvm::dyn_cast<FloatLitExpr>(&e)) {
    v.kind = Value::Kind::Float;
    v.f = f->getValue();
  } else if (auto *s = llvm::dyn_cast<StringLitExpr>(&e)) {
    v.kind = Value::Kind::String;
    v.s = s->getValue().str();
  } else if (auto *b = llvm::dyn_cast<BoolLitExpr>(&e)) {
    v.kind = Value::Kind::Bool;
    v.i = b->getValue();
  } else if (auto *n = llvm::dyn_cast<NameExpr>(&e)) {
    auto it = env.find(n->getName().str());
    if (it == env.end()) {
      diags.error(e.getLoc(), "unknown name '" + n->getName() + "'",
                  {e.getRange()});
      return Value::error();
    }
    v = it->second;
    v.range = e.getRange();
  } else if (auto *u = llvm::dyn_cast<UnaryExpr>(&e)) {
    v = evalConst(diags, u->getOperand(), env);
    if (!v.isError() && !v.isNumber()) {
      diags.error(e.getLoc(), "only numbers can be negated", {e.getRange()});
      return Value::error();
    }
    if (v.isError())
      return v;
    Value r;
    std::string why = foldNegate(v, r);
    if (!why.empty()) {
      diags.error(e.getLoc(), why, {e.getRange()});
      return Value::error();
    }
    v = r;
    v.range = e.getRange();
  } else if (auto *l = llvm::dyn_cast<ListExpr>(&e)) {
    v.kind = Value::Kind::List;
    for (const ExprPtr &el : l->getElements()) {
      v.list.push_back(evalConst(diags, *el, env));
      if (v.list.back().isError())
        return Value::error();
    }
  } else if (auto *bin = llvm::dyn_cast<BinaryExpr>(&e)) {
    Value a = evalConst(diags, bin->getLHS(), env);
    Value c = evalConst(diags, bin->getRHS(), env);
    if (a.isError() || c.isError())
      return Value::error();
    if (a.kind == Value::Kind::String && c.kind == Value::Kind::String &&
        bin->getOp() == BinaryOp::Add) {
      if (a.s.size() + c.s.size() > kMaxStringBytes) {
        diags.error(bin->getOpLoc(),
                    "this '+' makes a string of " +
                        llvm::Twine(a.s.size() + c.s.size()) +
                        " bytes: a compile-time string holds at most " +
                        llvm::Twine(kMaxStringBytes),
                    {e.getRange()});
        return Value::error();
      }
      v.kind = Value::Kind::String;
      v.s = a.s + c.s;
    } else if (a.isNumber() && c.isNumber() &&
               (bin->getOp() == BinaryOp::Add ||
                bin->getOp() == BinaryOp::Sub ||
                bin->getOp() == BinaryOp::Mul ||
                bin->getOp() == BinaryOp::Div ||
                bin->getOp() == BinaryOp::Pow)) {
      std::string why = foldBinary(bin->getOp(), a, c, v);
      if (!why.empty()) {
        diags.error(bin->getOpLoc(), why, {e.getRange()});
        return Value::error();
      }
      v.range = e.getRange();
    } else {
      diags.error(bin->getOpLoc(), "operator '" +
                                       getBinaryOpSpelling(bin->getOp()) +
                                       "' is not supported on these values "
                                       "in a configuration block",
                  {e.getRange()});
      return Value::error();
    }
  } else {
    diags.error(e.getLoc(), "expected a constant (string, number or list)",
                {e.getRange()});
    return Value::error();
  }
  return v;
}
