//===- ParserFuzzer.cpp - libFuzzer target for the lexer and parser -------===//
//
// Feeds arbitrary bytes to the lexer, the parser and both dumps (the AST is
// dumped even after errors, since the parser returns a partial module). Any
// crash, hang, leak or sanitizer report is a bug. Built only with
// -DMODELC_ENABLE_FUZZERS=ON and clang; run through scripts/fuzz.sh.
//
//===----------------------------------------------------------------------===//

#include "modelc/Frontend/ASTDump.h"
#include "modelc/Frontend/Lexer.h"
#include "modelc/Frontend/Parser.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

using namespace modelc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::SourceMgr sourceMgr;
  unsigned id = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.model"),
      llvm::SMLoc());
  std::string sink;
  llvm::raw_string_ostream os(sink);

  {
    DiagnosticEngine diags(sourceMgr, os);
    Lexer lexer(diags, id);
    dumpTokens(lexer.lexAll(), sourceMgr, os);
  }
  DiagnosticEngine diags(sourceMgr, os);
  std::unique_ptr<Module> module = parseModule(diags, id);
  dumpAST(*module, sourceMgr, os);
  return 0;
}
