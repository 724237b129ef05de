//===- Hover.cpp - The inferred type under the cursor ---------------------===//
//
// A hover on a pipeline stage, call or operator shows the type of the value
// computed there (one per instantiation of the enclosing function), and for
// a layer call the parameters it creates with their shapes and counts. A
// hover on a name shows what it denotes: a binding's, input's or
// parameter's type; a model's signature and parameter count; a function's
// signature and documentation; a data block's samples.
//
//===----------------------------------------------------------------------===//

#include "Features.h"

#include "modelc/Sema/Program.h"

#include "llvm/ADT/StringExtras.h"

using namespace modelc;
using namespace modelc::lsp;

/// "f32[B, 10]", or one line per instantiation "f32[B, 64] (in block_0)";
/// each line after `prefix` ("h: ").
static std::string typesText(llvm::ArrayRef<TypeAt> types,
                             llvm::StringRef prefix = "") {
  std::string s;
  for (const TypeAt &t : types) {
    if (!s.empty())
      s += "\n";
    s += prefix.str() + t.type;
    if (!t.context.empty())
      s += "    (in " + t.context + ")";
  }
  return s;
}

static std::string codeBlock(llvm::StringRef text) {
  return "```modelc\n" + text.str() + "\n```";
}

/// A number with thousands separators: 1,234,567.
static std::string withCommas(int64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      out += ",";
    out += digits[i];
  }
  return out;
}

/// The table of a layer call's parameters.
static std::string paramsText(llvm::ArrayRef<LayerParam> params) {
  int64_t total = 0;
  std::string s = "\n\n**parameters**\n";
  for (const LayerParam &p : params) {
    s += "- `" + p.name + "`: `" + p.type + "` (" + withCommas(p.count) + ")\n";
    total += p.count;
  }
  return s + "\n" + withCommas(total) + " parameters in all";
}

std::string lsp::signatureOf(const Decl &d, const ImportedModule *module) {
  llvm::StringRef text = textOf(d.getRange());
  text = text.substr(0, text.find('{')).rtrim();
  std::string out;
  for (char c : text) {
    bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (space && (out.empty() || out.back() == ' '))
      continue;
    out += space ? ' ' : c;
  }
  llvm::StringRef rest(out);
  if (module && rest.consume_front("fn "))
    return "fn " + module->boundName + "." + rest.str();
  return out;
}

static std::string siteText(const Analysis &a, const ValueSite &site) {
  llvm::ArrayRef<TypeAt> types = a.types.lookup(site.key);
  if (types.empty())
    return "";
  std::string what;
  switch (site.kind) {
  case SiteKind::Stage:
    what = "after `|> " + site.label + "`";
    break;
  case SiteKind::Call:
    what = "result of `" + site.label + "(...)`";
    break;
  case SiteKind::Operator:
    what = "result of `" + site.label + "`";
    break;
  case SiteKind::Binding:
    return codeBlock(typesText(types, site.label + ": "));
  }
  std::string s = codeBlock(typesText(types)) + "\n" + what;
  std::vector<LayerParam> params = a.layerParams(site.key);
  if (!params.empty())
    s += paramsText(params);
  return s;
}

/// A model's parameter count, when it was checked.
static std::string modelText(const Analysis &a, const Decl &d) {
  std::string s = codeBlock(signatureOf(d));
  if (!a.program)
    return s;
  for (const sema::Graph &g : a.program->models) {
    if (g.modelName != d.getName())
      continue;
    int64_t total = 0;
    for (const sema::TableEntry &p : g.params)
      total += sema::numElements(p.type.shape).value_or(0);
    s += "\n" + withCommas(total) + " parameters in " +
         std::to_string(g.params.size()) + " tensors";
  }
  return s;
}

static std::string dataText(const Analysis &a, const Decl &d) {
  std::string s = codeBlock(signatureOf(d));
  if (!a.program || !a.program->data || a.program->data->name != d.getName())
    return s;
  const sema::DataConfig &c = *a.program->data;
  s += "\none sample: `" + c.storedType + sema::shapeStr(c.sampleShape) + "`";
  if (c.numClasses > 0)
    s += ", " + std::to_string(c.numClasses) + " classes";
  if (c.train && c.train->numSamples >= 0)
    s += "; " + withCommas(c.train->numSamples) + " training samples";
  return s;
}

/// The dimension variables each instantiation of the fn declaring input `d`
/// bound: "\nin linear_0: I = 3136, N = 128".
static std::string bindingsText(const Analysis &a, const Definition &d) {
  std::string s;
  if (!a.program)
    return s;
  // The main file's fn declaring `d` (instances of imported fns point to
  // declarations sema no longer holds: they are compared, never read).
  const Decl *owner = nullptr;
  for (const DeclPtr &decl : a.module->getDecls())
    if (decl->getRange().Start.getPointer() <= d.nameRange.Start.getPointer() &&
        d.nameRange.End.getPointer() <= decl->getRange().End.getPointer())
      owner = decl.get();
  for (const sema::Graph &g : a.program->models)
    for (const sema::Instance &inst : g.instances) {
      if (!owner || inst.decl != owner)
        continue;
      std::vector<std::string> dims;
      for (const auto &[name, value] : inst.bindings)
        dims.push_back(name + " = " + value);
      s += "\nin " + inst.name + ": " + llvm::join(dims, ", ");
    }
  return s;
}

static std::string definitionText(const Analysis &a, const Definition &d) {
  switch (d.kind) {
  case DefKind::Let:
  case DefKind::Input:
  case DefKind::Param: {
    llvm::ArrayRef<TypeAt> types = a.types.lookup(d.nameRange.Start);
    if (!types.empty())
      return codeBlock(typesText(types, d.name + ": "));
    if (d.kind == DefKind::Input)
      return codeBlock(textOf(d.fullRange)) + bindingsText(a, d);
    return codeBlock(d.name);
  }
  case DefKind::Field: {
    std::string doc = trainOptionDoc(d.name);
    return codeBlock(textOf(d.fullRange)) + (doc.empty() ? "" : "\n" + doc);
  }
  case DefKind::Model:
    return modelText(a, *d.decl);
  case DefKind::Data:
    return dataText(a, *d.decl);
  case DefKind::Fn:
  case DefKind::Train:
    return codeBlock(signatureOf(*d.decl));
  case DefKind::ImportedFn: {
    std::string doc = d.module->docComment(*d.decl);
    return codeBlock(signatureOf(*d.decl, d.module)) +
           (doc.empty() ? "" : "\n" + doc);
  }
  case DefKind::Import:
    return "module `" + d.name + "` (" + d.module->path + ")";
  }
  return "";
}

std::optional<proto::Hover> lsp::hover(const Analysis &a,
                                       const proto::Position &pos) {
  llvm::SMLoc loc = toLoc(a, pos);
  if (!loc.isValid())
    return std::nullopt;
  const ValueSite *site = a.siteAt(loc);
  std::optional<unsigned> def = a.definitionAt(loc);
  std::string text = site ? siteText(a, *site) : "";
  llvm::SMRange range = site ? site->range : llvm::SMRange();
  if (def) {
    const Definition &d = a.symbols.defs[*def];
    bool callee = d.kind == DefKind::ImportedFn || d.kind == DefKind::Fn ||
                  d.kind == DefKind::Model;
    if (text.empty() || callee) {
      std::string more = definitionText(a, d);
      text = text.empty() ? more : text + "\n\n---\n" + more;
    }
    if (!site)
      for (const Occurrence &o : a.symbols.occurrences)
        if (o.def == *def && o.range.Start.getPointer() <= loc.getPointer() &&
            loc.getPointer() <= o.range.End.getPointer())
          range = o.range;
    if (!range.isValid() && d.kind != DefKind::ImportedFn)
      range = d.nameRange;
  }
  if (text.empty())
    return std::nullopt;
  proto::Hover h(toRange(a.sourceMgr, range));
  h.contents.value = text;
  return h;
}
