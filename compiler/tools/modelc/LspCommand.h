//===- LspCommand.h - The `modelc lsp` subcommand ---------------*- C++ -*-===//
//
// `modelc lsp [-I DIR]... [--lit-test] [--debounce-ms=N]`: the language
// server over standard input and output (modelc/Lsp/Server.h);
// `modelc lsp --bench FILE`: measures the re-analysis of FILE after a
// keystroke. The driver hands over when its first argument is `lsp`.
//
//===----------------------------------------------------------------------===//

#ifndef MODELC_TOOLS_MODELC_LSPCOMMAND_H
#define MODELC_TOOLS_MODELC_LSPCOMMAND_H

/// Runs `modelc lsp` on the command line `argv` (argv[1] is "lsp"); returns
/// the exit code: 0 after the client's shutdown and exit (or a finished
/// benchmark), 1 otherwise.
int runLspCommand(int argc, char **argv);

#endif // MODELC_TOOLS_MODELC_LSPCOMMAND_H
