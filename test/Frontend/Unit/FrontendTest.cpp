//===- FrontendTest.cpp - Unit tests of the front-end library -------------===//
//
// Tests the parts of ModelcFrontend that the lit tests do not reach through
// the driver: token values and line-start flags, the AST accessors that
// later stages use, the diagnostic error limit, import resolution, and the
// size limit of reading a source file.
//
//===----------------------------------------------------------------------===//

#include "modelc/Frontend/AST.h"
#include "modelc/Frontend/Lexer.h"
#include "modelc/Frontend/Parser.h"
#include "modelc/Frontend/SearchPath.h"
#include "modelc/Frontend/SourceFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

using namespace modelc;

namespace {

/// A source buffer plus a diagnostic engine writing into a string.
struct Source {
  llvm::SourceMgr sourceMgr;
  std::string diagText;
  llvm::raw_string_ostream diagStream{diagText};
  DiagnosticEngine diags;
  unsigned id;

  explicit Source(llvm::StringRef text, unsigned errorLimit = 20)
      : diags(sourceMgr, diagStream, errorLimit) {
    id = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "test.model"),
        llvm::SMLoc());
  }
};

TEST(Lexer, ValuesAndLineStarts) {
  Source src("a 42\n  2.5e1 \"x\\ty\" |> ...");
  std::vector<Token> toks = Lexer(src.diags, src.id).lexAll();
  ASSERT_EQ(toks.size(), 7u);
  EXPECT_TRUE(toks[0].atLineStart);
  EXPECT_FALSE(toks[1].atLineStart);
  EXPECT_EQ(toks[1].intValue, 42);
  EXPECT_TRUE(toks[2].atLineStart);
  EXPECT_EQ(toks[2].kind, TokenKind::FloatLit);
  EXPECT_DOUBLE_EQ(toks[2].floatValue, 25.0);
  EXPECT_EQ(toks[3].stringValue, "x\ty");
  EXPECT_EQ(toks[4].kind, TokenKind::PipeOp);
  EXPECT_EQ(toks[5].kind, TokenKind::Ellipsis);
  EXPECT_EQ(toks[6].kind, TokenKind::Eof);
  EXPECT_FALSE(src.diags.hasErrors());
}

TEST(Lexer, RecordsCommentsWhenAsked) {
  Source src("// own\nx = 1 // end\r\ny /* a\nb */ z\n/* alone */");
  std::vector<Comment> comments;
  std::vector<Token> toks = Lexer(src.diags, src.id, &comments).lexAll();
  EXPECT_EQ(toks.size(), 6u); // x = 1 y z Eof: comments are not tokens.
  ASSERT_EQ(comments.size(), 4u);
  auto text = [](const Comment &c) {
    return llvm::StringRef(c.range.Start.getPointer(),
                           c.range.End.getPointer() -
                               c.range.Start.getPointer());
  };
  EXPECT_EQ(text(comments[0]), "// own");
  EXPECT_TRUE(comments[0].ownLine);
  EXPECT_EQ(text(comments[1]), "// end"); // The CR is not comment text.
  EXPECT_FALSE(comments[1].ownLine);
  EXPECT_EQ(text(comments[2]), "/* a\nb */");
  EXPECT_TRUE(comments[2].isBlock);
  EXPECT_FALSE(comments[2].ownLine);
  EXPECT_TRUE(comments[3].ownLine);
}

TEST(Parser, KeepsParenthesesAroundExpressions) {
  Source src("fn f(x: f32) {\n  return ((x + 1)) * 2\n}\n");
  std::unique_ptr<Module> module = parseModule(src.diags, src.id);
  ASSERT_FALSE(src.diags.hasErrors());
  const auto &func = llvm::cast<FuncDecl>(*module->getDecls().front());
  const auto &ret = llvm::cast<ReturnStmt>(*func.getBody().front());
  const auto &mul = llvm::cast<BinaryExpr>(ret.getValue());
  EXPECT_FALSE(mul.getParenRange().isValid());
  llvm::SMRange parens = mul.getLHS().getParenRange();
  ASSERT_TRUE(parens.isValid());
  // The outermost pair: "((x + 1))".
  EXPECT_EQ(llvm::StringRef(parens.Start.getPointer(),
                            parens.End.getPointer() -
                                parens.Start.getPointer()),
            "((x + 1))");
}

TEST(Lexer, KeywordsAreNotIdentifiers) {
  Source src("model models on one");
  std::vector<Token> toks = Lexer(src.diags, src.id).lexAll();
  EXPECT_EQ(toks[0].kind, TokenKind::KwModel);
  EXPECT_EQ(toks[1].kind, TokenKind::Identifier);
  EXPECT_EQ(toks[2].kind, TokenKind::KwOn);
  EXPECT_EQ(toks[3].kind, TokenKind::Identifier);
}

TEST(Parser, DeclarationsAndPipes) {
  Source src("import nn as n\n"
             "model M(x: f32[B, 4]) -> f32[B, 2] {\n"
             "  return x |> n.linear(2)\n}\n"
             "train M on D { epochs = 1 }\n");
  std::unique_ptr<Module> m = parseModule(src.diags, src.id);
  ASSERT_FALSE(src.diags.hasErrors()) << src.diagText;
  ASSERT_EQ(m->getImports().size(), 1u);
  EXPECT_EQ(m->getImports()[0].getBoundName(), "n");
  ASSERT_EQ(m->getDecls().size(), 2u);
  auto *model = llvm::dyn_cast<FuncDecl>(m->getDecls()[0].get());
  ASSERT_TRUE(model && model->isModel());
  EXPECT_EQ(model->getParams()[0].type.str(), "f32[B, 4]");
  auto *ret = llvm::cast<ReturnStmt>(model->getBody()[0].get());
  auto *pipe = llvm::cast<PipeExpr>(&ret->getValue());
  auto *call = llvm::cast<CallExpr>(&pipe->getRHS());
  auto *callee = llvm::cast<MemberExpr>(&call->getCallee());
  EXPECT_EQ(callee->getDottedPath(), std::optional<std::string>("n.linear"));
  auto *train = llvm::cast<TrainDecl>(m->getDecls()[1].get());
  EXPECT_EQ(train->getModelName(), "M");
  EXPECT_EQ(train->getDataName(), "D");
}

TEST(Parser, MemberOfCallHasNoDottedPath) {
  Source src("fn f(x: f32) { return g(x).shape }");
  std::unique_ptr<Module> m = parseModule(src.diags, src.id);
  ASSERT_FALSE(src.diags.hasErrors()) << src.diagText;
  auto *fn = llvm::cast<FuncDecl>(m->getDecls()[0].get());
  auto *ret = llvm::cast<ReturnStmt>(fn->getBody()[0].get());
  auto *member = llvm::cast<MemberExpr>(&ret->getValue());
  EXPECT_EQ(member->getDottedPath(), std::nullopt);
  EXPECT_EQ(member->getName(), "shape");
}

TEST(Diagnostics, ErrorLimitStopsPrinting) {
  Source src("model M(x: f32) {\n a = )\n b = )\n c = )\n d = )\n}\n",
             /*errorLimit=*/2);
  parseModule(src.diags, src.id);
  EXPECT_TRUE(src.diags.hasTooManyErrors());
  // The parser stops at the third; the lexer then gives the end of the
  // file, whose error is counted, not printed.
  EXPECT_GE(src.diags.getNumErrors(), 3u);
  EXPECT_NE(src.diagText.find("test.model:3:6: error"), std::string::npos);
  EXPECT_EQ(src.diagText.find("test.model:4:6: error"), std::string::npos);
  EXPECT_NE(src.diagText.find("too many errors (2)"), std::string::npos);
}

TEST(Lexer, StopsAtTheErrorLimit) {
  Source src("$ $ $ $ $ x", /*errorLimit=*/2);
  Lexer lexer(src.diags, src.id);
  unsigned errors = 0;
  Token tok = lexer.next();
  for (; !tok.is(TokenKind::Eof); tok = lexer.next())
    errors += tok.is(TokenKind::Error);
  // The third error passes the limit: the rest, `x` included, is not lexed.
  EXPECT_EQ(errors, 3u);
  EXPECT_EQ(src.diags.getNumErrors(), 3u);
  const char *end = src.sourceMgr.getMemoryBuffer(src.id)->getBufferEnd();
  EXPECT_EQ(tok.range.Start.getPointer(), end);
}

TEST(SearchPath, DefaultStdlibIsBesideTheBinary) {
  EXPECT_EQ(getDefaultStdlibDir("/opt/modelc/bin/modelc"),
            "/opt/modelc/share/modelc/stdlib");
  std::vector<std::string> path = getImportSearchPath({"/a", "/b"}, "/x/bin/m");
  ASSERT_EQ(path.size(), 3u);
  EXPECT_EQ(path[0], "/a");
  EXPECT_EQ(path[2], "/x/share/modelc/stdlib");
  EXPECT_EQ(getImportSearchPath({"/a"}, "").size(), 1u);
}

TEST(SearchPath, ResolveImportFirstMatchWins) {
  llvm::SmallString<128> root;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("modelc-import", root));
  std::string d1 = (root + "/one").str(), d2 = (root + "/two").str();
  ASSERT_FALSE(llvm::sys::fs::create_directories(d1 + "/vision"));
  ASSERT_FALSE(llvm::sys::fs::create_directories(d2));
  for (std::string file : {d1 + "/vision/layers.model", d2 + "/nn.model",
                           d1 + "/nn.model"}) {
    std::error_code ec;
    llvm::raw_fd_ostream(file, ec) << "// empty\n";
    ASSERT_FALSE(ec);
  }
  std::vector<std::string> search = {d1, d2};
  EXPECT_EQ(resolveImport({"nn"}, search),
            std::optional<std::string>(d1 + "/nn.model"));
  EXPECT_EQ(resolveImport({"vision", "layers"}, search),
            std::optional<std::string>(d1 + "/vision/layers.model"));
  EXPECT_EQ(resolveImport({"nn"}, {d2}),
            std::optional<std::string>(d2 + "/nn.model"));
  EXPECT_EQ(resolveImport({"missing"}, search), std::nullopt);
  EXPECT_EQ(resolveImport({}, search), std::nullopt);
  llvm::sys::fs::remove_directories(root);
}

/// The error code of \p result's error, or success.
std::error_code
codeOf(llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> result) {
  return result ? std::error_code()
                : llvm::errorToErrorCode(result.takeError());
}

TEST(SourceFile, ReadsUpToTheLimitAndNoFurther) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("modelc-src", "model", path));
  std::string text(100, 'x');
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << text;
  }
  auto whole = readSourceFile(path, 100);
  ASSERT_TRUE(bool(whole));
  EXPECT_EQ((*whole)->getBuffer(), text);
  EXPECT_EQ((*whole)->getBufferIdentifier(), path);
  EXPECT_EQ(codeOf(readSourceFile(path, 99)), std::errc::file_too_large);
  llvm::sys::fs::remove(path);
  EXPECT_EQ(codeOf(readSourceFile(path)), std::errc::no_such_file_or_directory);
}

TEST(SourceFile, APipeIsReadInChunksUpToTheLimit) {
  // 150,000 bytes: more than one chunk of the reading loop.
  std::string text(150000, 'y');
  for (uint64_t limit : {uint64_t(150000), uint64_t(149999)}) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      close(fds[0]);
      size_t off = 0;
      while (off < text.size()) {
        ssize_t n = write(fds[1], text.data() + off, text.size() - off);
        if (n <= 0)
          _exit(1);
        off += size_t(n);
      }
      _exit(0);
    }
    close(fds[1]);
    auto read = readSourceFile("/dev/fd/" + std::to_string(fds[0]), limit);
    if (limit == text.size()) {
      ASSERT_TRUE(bool(read));
      EXPECT_EQ((*read)->getBuffer(), text);
    } else {
      EXPECT_EQ(codeOf(std::move(read)), std::errc::file_too_large);
    }
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
  }
}

} // namespace
