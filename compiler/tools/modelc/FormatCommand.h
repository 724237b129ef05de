//===- FormatCommand.h - The `modelc fmt` subcommand ------------*- C++ -*-===//
//
// `modelc fmt [--check | -i] FILE...`: formats .model files in the
// canonical layout (modelc/Format/Format.h). The driver hands over when its
// first argument is `fmt`.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TOOLS_MODELC_FORMATCOMMAND_H
#define MODELC_TOOLS_MODELC_FORMATCOMMAND_H

/// Runs `modelc fmt` on the command line `argv` (argv[1] is "fmt"); returns
/// the exit code: 0 done (or, with --check, every file formatted), 1 a user
/// error or an unformatted file, 2 a formatter bug caught by verification.
int runFormatCommand(int argc, char **argv);

#endif // MODELC_TOOLS_MODELC_FORMATCOMMAND_H
