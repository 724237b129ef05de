//===- OutputPaths.cpp - Output files that would replace an input ---------===//
//
// Implements checkOutputsSpareInputs (CliInternal.h): a command's output
// files (predict --out, --roofline) must not be a file the same command
// reads (its INPUTs, --checkpoint, --resume, the data block's files as
// --data-dir places them) or the executable itself; writing one would
// replace it, trained weights or data lost. Compared by device and inode,
// so another spelling or a hard link of the same file is caught.
//
//===----------------------------------------------------------------------===//
#include "CliInternal.h"

#include "modelrt/io/AtomicFile.h"

#include <sys/stat.h>
#include <utility>

namespace modelrt {

namespace {

/// The files \p args' command reads, each with how messages name it.
std::vector<std::pair<std::string, std::string>> inputsOf(const ModelrtProgram &p,
                                                          const CliArgs &a) {
  std::vector<std::pair<std::string, std::string>> in;
  for (const std::string &path : a.positional)
    in.push_back({path, "the INPUT file"});
  for (const char *flag : {"--checkpoint", "--resume"})
    if (auto it = a.flags.find(flag); it != a.flags.end())
      in.push_back({it->second, std::string("the checkpoint it reads (") + flag + ")"});
  ModelrtDataConfig data = p.config.data;
  std::vector<std::string> storage;
  if (applyDataDir(data, a, storage).isOk())
    for (const char *path :
         {data.train_inputs, data.train_labels, data.test_inputs, data.test_labels})
      if (path)
        in.push_back({path, "a data file of the model"});
  in.push_back({"/proc/self/exe", "this executable"});
  return in;
}

/// Whether \p path names an existing file (a new output is nobody's input).
bool exists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

} // namespace

Status checkOutputsSpareInputs(const ModelrtProgram &p, const CliArgs &a) {
  const std::pair<const char *, const char *> outputs[] = {
      {"--roofline", "roofline"}, {a.command == "predict" ? "--out" : nullptr, "outputs"}};
  for (auto [flag, what] : outputs) {
    auto it = flag ? a.flags.find(flag) : a.flags.end();
    if (it == a.flags.end() || !exists(it->second))
      continue;
    for (const auto &[path, role] : inputsOf(p, a))
      if (sameFile(it->second, path))
        return errorf("%s %s is %s: write the %s to another file", flag, it->second.c_str(),
                      role.c_str(), what);
  }
  return Status::ok();
}

} // namespace modelrt
