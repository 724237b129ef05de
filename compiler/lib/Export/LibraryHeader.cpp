//===- LibraryHeader.cpp - The C header of `--emit=lib` --------------------===//
//
// Generates the header text: a comment on use, linking, errors and threads,
// the size and shape macros, the class names, and the four declarations.
//
//===----------------------------------------------------------------------===//
#include "modelc/Export/LibraryHeader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

using namespace modelc;

bool modelc::isCIdentifier(const std::string &name) {
  if (name.empty() || llvm::isDigit(name[0]))
    return false;
  return llvm::all_of(name, [](char ch) {
    return llvm::isAlnum(ch) || ch == '_';
  });
}

static std::string joinShape(const std::vector<int64_t> &shape) {
  return llvm::join(llvm::map_range(shape,
                                    [](int64_t d) { return std::to_string(d); }),
                    ", ");
}

/// \p s as the body of a C string literal.
static std::string cEscape(const std::string &s) {
  std::string out;
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\')
      out += '\\', out += char(ch);
    else if (ch < 0x20 || ch == 0x7f) {
      char octal[8];
      std::snprintf(octal, sizeof octal, "\\%03o", unsigned(ch));
      out += octal;
    }
    else
      out += char(ch);
  }
  return out;
}

static int64_t product(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// The comment at the top: what the library is and how to use it.
static void writeComment(llvm::raw_ostream &os, const LibraryHeaderInfo &i,
                         llvm::StringRef p) {
  os << "/* " << p << ".h - the C API of the model " << i.modelName
     << ", compiled by modelc " << i.version << " from " << i.sourceName
     << " (--emit=lib).\n *\n"
     << " * Link with lib" << p << ".a: cc host.c lib" << p
     << ".a -lstdc++ -lz -lpng16 -ljpeg -lgomp -lpthread -lm -ldl\n"
     << " *   or with lib" << p << ".so: cc host.c -L. -l" << p
     << " -Wl,-rpath,'$ORIGIN'\n *\n"
     << " * A sample goes in as stored (as `predict` reads it, e.g. pixels "
        "0-255): the data\n * block's input transform is applied inside. "
        "Predictions run on the CPU.\n *\n"
     << " * Errors: " << p << "_load returns NULL and " << p
     << "_predict non-zero; " << p << "_last_error()\n"
     << " * then says why (per thread). Nothing is printed; nothing exits.\n"
     << " *\n * Thread safety: every function may be called from any thread;"
        " loads, predictions\n * and frees are serialised by one lock per "
        "process. Do not free a model another\n * thread uses.\n */\n";
}

/// The API's declarations.
static void writeDeclarations(llvm::raw_ostream &os, const std::string &p,
                              const std::string &up) {
  os << "\n/* A loaded model (the checkpoint's weights). */\n"
     << "typedef struct " << p << "_model " << p << "_model;\n\n"
     << "/* Loads a checkpoint of this model; NULL on error. */\n"
     << p << "_model *" << p << "_load(const char *checkpoint);\n\n"
     << "/* Runs n samples: input holds n * " << up
     << "_INPUT_SIZE floats, output receives\n   n * " << up
     << "_OUTPUT_SIZE floats (the model's outputs). 0 on success, -1 on "
        "error. */\n"
     << "int " << p << "_predict(" << p
     << "_model *model, const float *input, int64_t n,\n    float *output);\n\n"
     << "/* One sample's input (output) shape: writes up to capacity "
        "dimensions to dims\n   and returns the rank (dims may be NULL when "
        "capacity is 0); -1 on error. */\n"
     << "int " << p << "_input_shape(const " << p
     << "_model *model, int64_t *dims, int capacity);\n"
     << "int " << p << "_output_shape(const " << p
     << "_model *model, int64_t *dims, int capacity);\n\n"
     << "/* Frees a model (NULL is allowed). */\n"
     << "void " << p << "_free(" << p << "_model *model);\n\n"
     << "/* Why the calling thread's last call failed (\"\" when none). */\n"
     << "const char *" << p << "_last_error(void);\n";
}

std::string modelc::libraryHeader(const LibraryHeaderInfo &i) {
  std::string text;
  llvm::raw_string_ostream os(text);
  std::string p = i.prefix, up = llvm::StringRef(p).upper();
  writeComment(os, i, p);
  os << "#ifndef " << up << "_H\n#define " << up << "_H\n\n"
     << "#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  os << "/* One sample: input [" << joinShape(i.inputShape) << "], output ["
     << joinShape(i.outputShape) << "]. */\n"
     << "#define " << up << "_INPUT_SIZE " << product(i.inputShape) << "\n"
     << "#define " << up << "_OUTPUT_SIZE " << product(i.outputShape) << "\n";
  if (!i.classNames.empty()) {
    os << "#define " << up << "_NUM_CLASSES " << i.classNames.size() << "\n"
       << "static const char *const " << up << "_CLASS_NAMES[] = {";
    for (size_t k = 0; k < i.classNames.size(); ++k)
      os << (k ? ", " : "") << '"' << cEscape(i.classNames[k])
         << '"';
    os << "};\n";
  }
  writeDeclarations(os, p, up);
  os << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << up << "_H */\n";
  return text;
}
