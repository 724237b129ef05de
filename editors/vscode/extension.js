// editors/vscode/extension.js — the VS Code client of the modelc language
// server: starts `modelc lsp` (the executable from the modelc.server.path
// setting, with modelc.server.extraArgs) for .model files and passes the
// inlay-hint setting as an initialization option.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

/** The running client, stopped on deactivation. */
let client;

/** Starts the language server for the modelc language. */
function activate(context) {
  const config = vscode.workspace.getConfiguration('modelc');
  const serverOptions = {
    command: config.get('server.path', 'modelc'),
    args: ['lsp', ...config.get('server.extraArgs', [])],
  };
  const clientOptions = {
    documentSelector: [{ scheme: 'file', language: 'modelc' }],
    initializationOptions: {
      inlayHints: config.get('inlayHints.enabled', true),
    },
  };
  client = new LanguageClient('modelc', 'modelc language server',
                              serverOptions, clientOptions);
  context.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('modelc'))
          vscode.window.showInformationMessage(
              'modelc: reload the window to apply the new settings');
      }));
  return client.start();
}

/** Stops the language server. */
function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
