//===- Completion.cpp - Completion of names, builtins and keywords --------===//
//
// Reads the context from the text before the cursor: after `nn.` the
// imported module's functions (with their documentation comments); inside
// a call's parentheses the callee's keyword arguments; at the start of a
// line in a train block the block's fields; elsewhere the keywords, the
// builtins (with their signatures), the imported modules, the file's
// declarations and the bindings in scope.
//
//===----------------------------------------------------------------------===//

#include "Features.h"

#include "modelc/Sema/BuiltinList.h"

#include "llvm/ADT/StringExtras.h"

using namespace modelc;
using namespace modelc::lsp;

/// The fields of a train block.
static const char *const kTrainFields[] = {
#define MODELRT_TRAIN_FIELD(NAME) #NAME,
#define MODELRT_TRAIN_OPTION(NAME, ...) #NAME,
#include "modelsupport/TrainConfig.def"
};

std::string lsp::trainOptionDoc(llvm::StringRef name) {
#define MODELRT_TRAIN_OPTION(NAME, TYPE, DEFAULT, LO, HI, BOUNDS, RANGE, ENC,  \
                             OMIT, ABI, DOC)                                   \
  if (name == #NAME)                                                           \
    return std::string(DOC) + " (" RANGE ", default " #DEFAULT ")";
#include "modelsupport/TrainConfig.def"
  return "";
}

static const char *const kKeywords[] = {"import", "as",    "fn",   "model",
                                        "data",   "train", "on",   "param",
                                        "return", "true",  "false"};

static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

static proto::CompletionItem item(llvm::StringRef label,
                                  proto::CompletionItemKind kind,
                                  llvm::StringRef detail,
                                  llvm::StringRef doc = "") {
  proto::CompletionItem it(label, kind);
  it.detail = detail.str();
  if (!doc.empty())
    it.documentation =
        proto::MarkupContent{proto::MarkupKind::Markdown, doc.str()};
  return it;
}

namespace {
/// Builds the completion list for one position.
class Completer {
public:
  Completer(const Analysis &a, llvm::SMLoc loc) : a(a), loc(loc) {
    const llvm::MemoryBuffer *b = a.sourceMgr.getMemoryBuffer(a.mainBuffer);
    before = llvm::StringRef(b->getBufferStart(),
                             loc.getPointer() - b->getBufferStart());
    size_t start = before.size();
    while (start > 0 && isIdentChar(before[start - 1]))
      --start;
    head = before.take_front(start);
  }

  proto::CompletionList run() {
    if (head.ends_with(".")) {
      addModuleMembers(identBefore(head.drop_back()));
      return list;
    }
    if (std::optional<std::string> callee = enclosingCall())
      addKeywords(*callee);
    if (inTrainBlock() && atLineStart())
      for (const char *f : kTrainFields)
        list.items.push_back(item(f, proto::CompletionItemKind::Field,
                                  "train field", trainOptionDoc(f)));
    addGeneral();
    return list;
  }

private:
  /// The identifier that ends `text`.
  static llvm::StringRef identBefore(llvm::StringRef text) {
    size_t start = text.size();
    while (start > 0 && isIdentChar(text[start - 1]))
      --start;
    return text.drop_front(start);
  }

  bool atLineStart() const {
    size_t nl = head.rfind('\n');
    llvm::StringRef line =
        nl == llvm::StringRef::npos ? head : head.drop_front(nl + 1);
    return line.trim().empty();
  }

  const Decl *enclosingDecl() const {
    for (const DeclPtr &d : a.module->getDecls())
      if (d->getRange().Start.getPointer() <= loc.getPointer() &&
          loc.getPointer() <= d->getRange().End.getPointer())
        return d.get();
    return nullptr;
  }

  bool inTrainBlock() const {
    const Decl *d = enclosingDecl();
    if (d)
      return llvm::isa<TrainDecl>(d);
    // A train block still being typed: the last `train` keyword before the
    // cursor has an opening brace and no closing one after it.
    size_t at = head.rfind("train ");
    return at != llvm::StringRef::npos && head.drop_front(at).contains('{') &&
           !head.drop_front(at).contains('}');
  }

  /// The dotted callee of the innermost unclosed `(` before the cursor, when
  /// the cursor is at an argument's start.
  std::optional<std::string> enclosingCall() const {
    llvm::StringRef rest = head.rtrim();
    if (!rest.ends_with("(") && !rest.ends_with(","))
      return std::nullopt;
    int depth = 0;
    for (size_t i = head.size(); i-- > 0;) {
      char c = head[i];
      if (c == ')' || c == ']')
        ++depth;
      else if ((c == '(' || c == '[') && depth > 0)
        --depth;
      else if (c == '[' || c == '{' || c == '}')
        return std::nullopt;
      else if (c == '(') {
        size_t end = i, start = i;
        while (start > 0 &&
               (isIdentChar(head[start - 1]) || head[start - 1] == '.'))
          --start;
        if (start == end)
          return std::nullopt;
        return head.slice(start, end).str();
      }
    }
    return std::nullopt;
  }

  /// `name=` for a call of `callee`; `detail` is the parameter as declared,
  /// `doc` the callee's documentation.
  void addKeywordArg(llvm::StringRef name, llvm::StringRef detail,
                     llvm::StringRef doc) {
    proto::CompletionItem it = item(
        name.str() + "=", proto::CompletionItemKind::Property, detail, doc);
    it.insertText = name.str() + "=";
    list.items.push_back(std::move(it));
  }

  /// The parameters of fn `fn` (of module `m`, or this file when null).
  void addFnKeywords(const FuncDecl &fn, const ImportedModule *m) {
    std::string doc = "```modelc\n" + signatureOf(fn, m) + "\n```";
    if (m && !m->docComment(fn).empty())
      doc += "\n" + m->docComment(fn);
    for (const Param &p : fn.getParams())
      addKeywordArg(p.name, textOf(p.range), doc);
  }

  void addKeywords(llvm::StringRef callee) {
    auto [base, member] = callee.rsplit('.');
    if (!member.empty()) {
      for (const std::unique_ptr<ImportedModule> &m : a.imports)
        if (m->boundName == base)
          for (const DeclPtr &d : m->ast->getDecls())
            if (auto *fn = llvm::dyn_cast<FuncDecl>(d.get());
                fn && fn->getName() == member)
              addFnKeywords(*fn, m.get());
      return;
    }
    for (const sema::BuiltinDoc &b : sema::listBuiltins())
      if (b.name == callee)
        for (size_t i = 0; i < b.params.size(); ++i)
          if (b.optional[i])
            addKeywordArg(b.params[i], "keyword argument of " + b.name,
                          "builtin `" + b.signature + "`");
    for (const Definition &d : a.symbols.defs)
      if (d.kind == DefKind::Fn && d.name == callee)
        addFnKeywords(*llvm::cast<FuncDecl>(d.decl), nullptr);
  }

  void addModuleMembers(llvm::StringRef module) {
    for (const std::unique_ptr<ImportedModule> &m : a.imports) {
      if (m->boundName != module)
        continue;
      for (const DeclPtr &d : m->ast->getDecls())
        if (llvm::isa<FuncDecl>(d.get()))
          list.items.push_back(
              item(d->getName(), proto::CompletionItemKind::Function,
                   m->boundName + "." + d->getName().str(), m->docComment(*d)));
    }
  }

  void addGeneral() {
    for (const char *k : kKeywords)
      list.items.push_back(
          item(k, proto::CompletionItemKind::Keyword, "keyword"));
    for (const sema::BuiltinDoc &b : sema::listBuiltins())
      list.items.push_back(
          item(b.name, proto::CompletionItemKind::Function, b.signature,
               "builtin `" + b.signature + "`" +
                   (b.op.empty() ? "" : " (op `" + b.op + "`)")));
    const Decl *scope = enclosingDecl();
    for (const Definition &d : a.symbols.defs) {
      bool global = d.kind == DefKind::Model || d.kind == DefKind::Fn ||
                    d.kind == DefKind::Data || d.kind == DefKind::Import;
      bool local = (d.kind == DefKind::Let || d.kind == DefKind::Input ||
                    d.kind == DefKind::Field || d.kind == DefKind::Param) &&
                   scope &&
                   scope->getRange().Start.getPointer() <=
                       d.nameRange.Start.getPointer() &&
                   d.nameRange.End.getPointer() <= loc.getPointer();
      if (global || local)
        list.items.push_back(item(d.name,
                                  global ? proto::CompletionItemKind::Module
                                         : proto::CompletionItemKind::Variable,
                                  global ? "declaration" : "local name"));
    }
  }

  const Analysis &a;
  llvm::SMLoc loc;
  /// The text before the cursor, and before the identifier being typed.
  llvm::StringRef before, head;
  proto::CompletionList list;
};
} // namespace

proto::CompletionList lsp::complete(const Analysis &a,
                                    const proto::Position &pos) {
  llvm::SMLoc loc = toLoc(a, pos);
  if (!loc.isValid())
    return {};
  return Completer(a, loc).run();
}
