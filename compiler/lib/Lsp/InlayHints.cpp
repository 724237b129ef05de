//===- InlayHints.cpp - The shape after each stage and binding ------------===//
//
// One hint after each pipeline stage (except a binding's last, which the
// binding's own hint shows) and after each bound name, reading `: TYPE`;
// a value with several instantiations shows them joined by ` | `.
//
//===----------------------------------------------------------------------===//

#include "Features.h"

using namespace modelc;
using namespace modelc::lsp;

std::vector<proto::InlayHint> lsp::inlayHints(const Analysis &a,
                                              const proto::Range &range) {
  std::vector<proto::InlayHint> hints;
  for (const ValueSite &site : a.symbols.sites) {
    if (!site.hintAt.isValid())
      continue;
    llvm::ArrayRef<TypeAt> types = a.types.lookup(site.key);
    if (types.empty())
      continue;
    proto::Position at = toPosition(a.sourceMgr, site.hintAt);
    if (at < range.start || range.end < at)
      continue;
    std::string label = ": ";
    for (size_t i = 0; i < types.size(); ++i)
      label += (i ? " | " : "") + types[i].type;
    proto::InlayHint hint(proto::InlayHintKind::Type, at);
    hint.label = label;
    hint.paddingLeft = site.kind == SiteKind::Stage;
    hints.push_back(std::move(hint));
  }
  llvm::sort(hints, [](const proto::InlayHint &x, const proto::InlayHint &y) {
    return x.position < y.position;
  });
  return hints;
}
