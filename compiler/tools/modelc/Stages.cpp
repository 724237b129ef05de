//===- Stages.cpp - The modelc driver's pipeline of stages ----------------===//
//
// The table of stages and their run/emit functions. Today the pipeline ends
// after parsing; semantic analysis, MLIR generation, autodiff, fusion and
// code generation add their entries here.
//
//===----------------------------------------------------------------------===//

#include "Stages.h"

#include "modelc/Frontend/ASTDump.h"
#include "modelc/Frontend/Lexer.h"
#include "modelc/Frontend/Parser.h"

#include "llvm/ADT/StringExtras.h"

using namespace modelc;

static bool emitTokens(Compilation &c, llvm::raw_ostream &os) {
  Lexer lexer(c.diags, c.mainBuffer);
  std::vector<Token> tokens = lexer.lexAll();
  dumpTokens(tokens, c.sourceMgr, os);
  return !c.diags.hasErrors();
}

static bool runParse(Compilation &c) {
  c.module = parseModule(c.diags, c.mainBuffer);
  return !c.diags.hasErrors();
}

static bool emitAST(Compilation &c, llvm::raw_ostream &os) {
  dumpAST(*c.module, c.sourceMgr, os);
  return true;
}

static const Stage kStages[] = {
    {"tokens", "the token stream, one token per line", "lexing", nullptr,
     emitTokens},
    {"ast", "the abstract syntax tree", "parsing", runParse, emitAST},
};

llvm::ArrayRef<Stage> modelc::getStages() { return kStages; }

const Stage *modelc::findStage(llvm::StringRef name) {
  for (const Stage &stage : kStages)
    if (name == stage.name)
      return &stage;
  return nullptr;
}

std::string modelc::listStageNames() {
  std::vector<std::string> names;
  for (const Stage &stage : kStages)
    names.push_back(stage.name);
  return llvm::join(names, ", ");
}
