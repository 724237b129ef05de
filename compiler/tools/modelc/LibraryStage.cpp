//===- LibraryStage.cpp - The driver's `--emit=lib` stage -----------------===//
//
// Writes the object (modelc_program and the NET_* functions, no main) to a
// temporary file, then either links it with the runtime into a shared
// library (`c++ -shared`, Target/Linker.h) or writes an archive holding it
// and every member of libmodelrt.a (llvm::writeArchive), so that a host
// program links one file; then writes NET.h (Export/LibraryHeader.h). Each
// file replaces an existing one only once complete (Linker.h, OutputFile.h,
// llvm::writeArchive's temporary).
//
//===----------------------------------------------------------------------===//
#include "LibraryStage.h"
#include "OutputFile.h"
#include "Stages.h"

#include "modelc/Export/LibraryHeader.h"
#include "modelc/Target/Linker.h"

#include "llvm/Object/Archive.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace modelc;

std::string modelc::libraryPrefix(llvm::StringRef outputPath) {
  llvm::StringRef file = llvm::sys::path::filename(outputPath);
  if (!file.consume_front("lib") ||
      !(file.consume_back(".a") || file.consume_back(".so")))
    return "";
  return isCIdentifier(file.str()) ? file.str() : "";
}

/// One sample's shape: node \p id's type without its batch dimension.
static std::vector<int64_t> sampleShape(const sema::Graph &g, unsigned id) {
  std::vector<int64_t> shape;
  for (const auto &d : llvm::ArrayRef(g.nodes[id].type.shape).drop_front())
    shape.push_back(d.size);
  return shape;
}

static LibraryHeaderInfo headerInfo(Compilation &c, llvm::StringRef prefix) {
  LibraryHeaderInfo info;
  info.prefix = prefix.str();
  info.sourceName = llvm::sys::path::filename(c.inputName).str();
  info.version = c.exportSettings.version;
  const sema::Graph &g = *c.program->getMainModel();
  info.modelName = g.modelName;
  info.inputShape = sampleShape(g, g.inputs[0]);
  info.outputShape = sampleShape(g, g.output);
  if (c.program->data)
    info.classNames = c.program->data->classNames;
  return info;
}

/// An archive of \p object and the members of \p runtime.
static llvm::Error writeArchive(llvm::StringRef outputPath,
                                llvm::StringRef object,
                                llvm::StringRef runtime) {
  std::vector<llvm::NewArchiveMember> members;
  auto own = llvm::NewArchiveMember::getFile(object, /*Deterministic=*/true);
  if (!own)
    return own.takeError();
  own->MemberName = "model.o";
  members.push_back(std::move(*own));
  auto buffer = llvm::MemoryBuffer::getFile(runtime);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read " + runtime);
  llvm::Error err = llvm::Error::success();
  llvm::object::Archive archive((*buffer)->getMemBufferRef(), err);
  if (err)
    return err;
  for (const llvm::object::Archive::Child &child : archive.children(err)) {
    auto member = llvm::NewArchiveMember::getOldMember(child, true);
    if (!member)
      return member.takeError();
    members.push_back(std::move(*member));
  }
  if (err)
    return err;
  return llvm::writeArchive(outputPath, members,
                            llvm::SymtabWritingMode::NormalSymtab,
                            llvm::object::Archive::K_GNU,
                            /*Deterministic=*/true, /*Thin=*/false);
}

/// Links or archives the object at \p object into \p outputPath.
static llvm::Error buildLibrary(Compilation &c, llvm::StringRef outputPath,
                                llvm::StringRef object) {
  std::string runtimeDir = c.codegenSettings.runtimeLibDir;
  std::string runtime = runtimeDir + "/libmodelrt.a";
  if (!llvm::sys::fs::exists(runtime))
    return llvm::createStringError("the runtime library libmodelrt.a is not "
                                   "in '" + runtimeDir + "'");
  if (outputPath.ends_with(".a"))
    return writeArchive(outputPath, object, runtime);
  LinkOptions link;
  link.driverFlags = {"-shared"};
  link.inputs = {object.str()};
  link.runtimeLibDir = runtimeDir;
  link.outputPath = outputPath.str();
  return linkExecutable(link);
}

static bool libraryError(Compilation &c, const llvm::Twine &message) {
  inputError(c) << "--emit=lib: " << message << "\n";
  return false;
}

bool modelc::writeLibrary(Compilation &c, llvm::StringRef outputPath) {
  std::string prefix = libraryPrefix(outputPath);
  if (prefix.empty())
    return libraryError(c, "the output must be named libNAME.a or "
                           "libNAME.so with NAME a C identifier (NAME_load, "
                           "NAME_predict... are the functions), not '" +
                               outputPath + "'");
  llvm::SmallString<128> object;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("modelc-lib", "o", object))
    return libraryError(c, "cannot create a temporary file: " + ec.message());
  llvm::FileRemover remover(object);
  if (!writeObjectFile(c, object))
    return false;
  if (llvm::Error e = buildLibrary(c, outputPath, object))
    return libraryError(c, llvm::toString(std::move(e)));
  llvm::SmallString<128> header(llvm::sys::path::parent_path(outputPath));
  llvm::sys::path::append(header, prefix + ".h");
  auto emit = [&](llvm::raw_ostream &os) {
    os << libraryHeader(headerInfo(c, prefix));
    return true;
  };
  auto fail = [&](const llvm::Twine &message) {
    libraryError(c, message);
    return 1;
  };
  return writeOutput(header, emit, fail) == 0;
}
