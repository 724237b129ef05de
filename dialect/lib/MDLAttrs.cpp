//===- MDLAttrs.cpp - mdl enums and the #mdl.init attribute ---------------===//
//
// Parses, prints and verifies `#mdl.init<kind(args...)>` and registers the
// dialect's attributes.
//
//===----------------------------------------------------------------------===//

#include "mdl/MDLDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::mdl;

#include "mdl/MDLEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "mdl/MDLAttrs.cpp.inc"

void MDLDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mdl/MDLAttrs.cpp.inc"
      >();
}

/// Parses `<kind>` or `<kind(a, b, ...)>`.
Attribute InitAttr::parse(AsmParser &parser, Type) {
  StringRef keyword;
  SMLoc kindLoc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword(&keyword))
    return {};
  std::optional<InitKind> kind = symbolizeInitKind(keyword);
  if (!kind) {
    parser.emitError(kindLoc, "unknown initialiser '")
        << keyword
        << "' (expected kaiming_uniform, uniform, normal, zeros, ones or "
           "constant)";
    return {};
  }
  SmallVector<double> args;
  if (succeeded(parser.parseOptionalLParen())) {
    auto parseArg = [&]() -> ParseResult {
      // Integers (784) and floats (-0.1, 1e-3) are both accepted.
      SMLoc argLoc = parser.getCurrentLocation();
      Attribute arg;
      if (parser.parseAttribute(arg))
        return failure();
      if (auto i = llvm::dyn_cast<IntegerAttr>(arg))
        args.push_back(static_cast<double>(i.getInt()));
      else if (auto f = llvm::dyn_cast<FloatAttr>(arg))
        args.push_back(f.getValueAsDouble());
      else
        return parser.emitError(argLoc, "expected a number");
      return success();
    };
    if (parser.parseCommaSeparatedList(parseArg) || parser.parseRParen())
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<InitAttr>(
      parser.getContext(), *kind,
      DenseF64ArrayAttr::get(parser.getContext(), args));
}

void InitAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyInitKind(getKind());
  if (!getArgs().empty()) {
    printer << "(";
    llvm::interleaveComma(getArgs().asArrayRef(), printer, [&](double v) {
      // Whole numbers (fan-in, 0, 1) print as integers, others as floats.
      if (v == std::trunc(v) && std::fabs(v) < 1e15)
        printer << static_cast<int64_t>(v);
      else
        printer.printFloat(llvm::APFloat(v));
    });
    printer << ")";
  }
  printer << ">";
}

/// The accepted argument counts of an initialiser kind: [min, max].
static std::pair<size_t, size_t> initArity(InitKind kind) {
  switch (kind) {
  case InitKind::kaiming_uniform:
    return {1, 2};
  case InitKind::uniform:
  case InitKind::normal:
    return {2, 2};
  case InitKind::zeros:
  case InitKind::ones:
    return {0, 0};
  case InitKind::constant:
    return {1, 1};
  }
  llvm_unreachable("unknown InitKind");
}

LogicalResult InitAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               InitKind kind, DenseF64ArrayAttr argsAttr) {
  if (!argsAttr)
    return emitError() << "initialiser arguments are missing";
  ArrayRef<double> args = argsAttr.asArrayRef();
  auto [lo, hi] = initArity(kind);
  StringRef name = stringifyInitKind(kind);
  if (args.size() < lo || args.size() > hi)
    return emitError() << "initialiser '" << name << "' takes "
                       << (lo == hi ? std::to_string(lo)
                                    : std::to_string(lo) + " or " +
                                          std::to_string(hi))
                       << " argument(s), got " << args.size();
  if (kind == InitKind::kaiming_uniform && !(args[0] > 0))
    return emitError() << "kaiming_uniform fan_in must be positive, got "
                       << args[0];
  if (kind == InitKind::uniform && !(args[0] < args[1]))
    return emitError() << "uniform bounds must satisfy lo < hi, got ("
                       << args[0] << ", " << args[1] << ")";
  if (kind == InitKind::normal && !(args[1] > 0))
    return emitError() << "normal std must be positive, got " << args[1];
  return success();
}
