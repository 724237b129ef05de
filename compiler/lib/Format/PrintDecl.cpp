//===- PrintDecl.cpp - The formatter's declarations, statements, fields ---===//
//
// Imports, the four declaration kinds, bodies (two spaces per level), and
// the alignment of consecutive items the way the examples write them:
// `param` statements align their types and `=`; data/train fields align
// their `=`; fields the author wrote on one line stay on one line, three
// spaces apart, and do not interrupt the alignment of the lines around
// them. A blank line or a comment line ends a run of aligned items, and an
// item that spans several lines is not aligned.
//
//===----------------------------------------------------------------------===//

#include "Printer.h"

#include "llvm/ADT/StringExtras.h"

using namespace modelc;
using namespace modelc::format;

void Printer::printModule(const Module &module) {
  for (const Import &import : module.getImports()) {
    w.beginItem(import.range.Start, 0);
    printImport(import);
  }
  for (const DeclPtr &decl : module.getDecls()) {
    w.beginItem(decl->getLoc(), 0);
    printDecl(*decl);
  }
  w.finish();
}

void Printer::printImport(const Import &import) {
  w.token("import", import.range.Start);
  w.space();
  w.token(llvm::join(import.path, "."));
  if (import.alias.empty())
    return;
  w.space();
  w.token("as");
  w.space();
  w.token(import.alias);
}

void Printer::printDecl(const Decl &decl) {
  w.push({0, 4});
  llvm::SMLoc close = llvm::SMLoc::getFromPointer(
      decl.getRange().End.getPointer() - 1);
  if (auto *func = llvm::dyn_cast<FuncDecl>(&decl)) {
    printFunc(*func);
    printBlock(close, !func->getBody().empty(), [&](unsigned indent) {
      printStmts(func->getBody(), indent);
    });
  } else if (auto *data = llvm::dyn_cast<DataDecl>(&decl)) {
    w.token("data", decl.getLoc());
    w.space();
    w.token(data->getName(), data->getNameRange().Start);
    printBlock(close, !data->getFields().empty(), [&](unsigned indent) {
      printFields(data->getFields(), indent);
    });
  } else {
    const auto &train = llvm::cast<TrainDecl>(decl);
    w.token("train", decl.getLoc());
    w.space();
    w.token(train.getModelName(), train.getNameRange().Start);
    w.space();
    w.token("on");
    w.space();
    w.token(train.getDataName(), train.getDataRange().Start);
    printBlock(close, !train.getFields().empty(), [&](unsigned indent) {
      printFields(train.getFields(), indent);
    });
  }
  w.pop();
}

void Printer::printFunc(const FuncDecl &func) {
  w.token(func.isModel() ? "model" : "fn", func.getLoc());
  w.space();
  w.token(func.getName(), func.getNameRange().Start);
  printSignature(func);
}

void Printer::printSignature(const FuncDecl &func) {
  llvm::ArrayRef<Param> params = func.getParams();
  // The '(' follows the name, perhaps after blanks.
  const char *p = func.getNameRange().End.getPointer();
  while (*p == ' ' || *p == '\t')
    ++p;
  llvm::SMLoc open = *p == '(' ? llvm::SMLoc::getFromPointer(p) : llvm::SMLoc();
  openBracket("(", open,
              params.empty() ? llvm::SMLoc() : params.front().nameRange.Start);
  for (size_t i = 0; i < params.size(); ++i) {
    const Param &param = params[i];
    if (i)
      separate(params[i - 1].range.End, param.nameRange.Start);
    w.token(param.name, param.nameRange.Start);
    w.token(":");
    w.space();
    printType(param.type);
    if (param.defaultValue) {
      w.space();
      w.token("=");
      w.space();
      printExpr(*param.defaultValue);
    }
  }
  // Comments before the ')' (it has no location of its own) stay inside.
  w.flushBeforeSeparator(params.empty() ? open : params.back().range.End,
                         func.getRange().End, ')');
  closeBracket(")", llvm::SMLoc());
  const std::optional<TypeRef> &result = func.getResultType();
  if (!result)
    return;
  keepBreak(params.empty() ? func.getNameRange().End : params.back().range.End,
            result->range.Start);
  w.token("->");
  w.space();
  printType(*result);
}

void Printer::printBlock(llvm::SMLoc closeLoc, bool hasItems,
                         const std::function<void(unsigned)> &items) {
  w.space();
  w.token("{");
  if (!hasItems && !w.hasCommentBefore(closeLoc)) {
    w.token("}", closeLoc);
    return;
  }
  unsigned indent = w.top().base + 2;
  w.openBlock();
  items(indent);
  w.endItems(closeLoc, indent);
  w.setIndent(indent - 2);
  w.token("}", closeLoc);
}

void Printer::printAssigned(llvm::SMLoc after, const Expr &value) {
  keepBreak(after, exprStart(value));
  printExpr(value);
}

void Printer::printStmt(const Stmt &stmt, Align align) {
  if (auto *let = llvm::dyn_cast<LetStmt>(&stmt)) {
    w.token(let->getName(), let->getNameRange().Start);
    w.space();
    w.token("=");
    return printAssigned(let->getNameRange().End, let->getValue());
  }
  if (auto *ret = llvm::dyn_cast<ReturnStmt>(&stmt)) {
    w.token("return", ret->getLoc());
    w.space();
    return printExpr(ret->getValue());
  }
  const auto &param = llvm::cast<ParamStmt>(stmt);
  w.token("param", param.getLoc());
  w.space();
  w.token(param.getName(), param.getNameRange().Start);
  w.token(":");
  unsigned nameWidth = columnWidth(param.getName()) + 1;
  if (align.name > nameWidth)
    w.gap(align.name - nameWidth);
  w.space();
  printType(param.getType());
  unsigned typeWidth = columnWidth(param.getType().str());
  if (align.type > typeWidth)
    w.gap(align.type - typeWidth);
  w.space();
  w.token("=");
  printAssigned(param.getType().range.End, param.getInit());
}

void Printer::printStmts(llvm::ArrayRef<StmtPtr> body, unsigned indent) {
  auto print = [&](size_t i, Align align) {
    w.beginItem(body[i]->getLoc(), indent);
    w.push({indent, indent + 4});
    printStmt(*body[i], align);
    w.pop();
  };
  auto kind = [&](size_t i) {
    return llvm::isa<ParamStmt>(*body[i]) ? ItemKind::Candidate
                                           : ItemKind::Breaks;
  };
  auto widths = [&](size_t i) {
    const auto &param = llvm::cast<ParamStmt>(*body[i]);
    return Align{columnWidth(param.getName()) + 1,
                 columnWidth(param.getType().str())};
  };
  auto between = [&](size_t i) {
    return runBreak(body[i - 1]->getRange().End, body[i]->getLoc());
  };
  std::vector<Align> aligns =
      alignRuns(body.size(), between, kind, widths, print);
  for (size_t i = 0; i < body.size(); ++i)
    print(i, aligns[i]);
}

void Printer::printField(const Field &field, unsigned pad) {
  w.token(field.name, field.nameRange.Start);
  unsigned width = columnWidth(field.name);
  if (pad > width)
    w.gap(pad - width);
  w.space();
  w.token("=");
  printAssigned(field.nameRange.End, *field.value);
}

void Printer::printFields(llvm::ArrayRef<Field> fields, unsigned indent) {
  // Fields the author wrote on one line (with no comment between) form one
  // output line.
  std::vector<std::vector<const Field *>> lines;
  for (size_t i = 0; i < fields.size(); ++i) {
    bool join = i && !w.sourceBreak(fields[i - 1].range.End,
                                    fields[i].range.Start) &&
                !w.hasCommentIn(fields[i - 1].range.End,
                                fields[i].range.Start, /*ownLineOnly=*/false);
    if (!join)
      lines.emplace_back();
    lines.back().push_back(&fields[i]);
  }
  auto print = [&](size_t i, Align align) {
    w.beginItem(lines[i].front()->range.Start, indent);
    for (const Field *field : lines[i]) {
      if (field != lines[i].front()) {
        w.flush(field->range.Start);
        w.gap(3);
      }
      w.push({indent, indent + 4});
      printField(*field, align.name);
      w.pop();
    }
  };
  auto kind = [&](size_t i) {
    return lines[i].size() == 1 ? ItemKind::Candidate : ItemKind::Transparent;
  };
  auto widths = [&](size_t i) {
    return Align{columnWidth(lines[i].front()->name), 0};
  };
  auto between = [&](size_t i) {
    return runBreak(lines[i - 1].back()->range.End,
                    lines[i].front()->range.Start);
  };
  std::vector<Align> aligns =
      alignRuns(lines.size(), between, kind, widths, print);
  for (size_t i = 0; i < lines.size(); ++i)
    print(i, aligns[i]);
}
