// The VS Code client of `taleforge lsp`: starts the server over stdio for world
// files (*.world.json, and JSON files that say they are V33 worlds) and
// play-tests (*.test.yaml), and adds a command that shows a world's summary.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("taleforge").get("command");
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  client = new LanguageClient(
    "taleforge",
    "Taleforge",
    {
      run: { command, args, options: { cwd, shell: process.platform === "win32" } },
      debug: { command, args, options: { cwd, shell: process.platform === "win32" } },
    },
    {
      documentSelector: [
        { scheme: "file", language: "json" },
        { scheme: "file", pattern: "**/*.test.yaml" },
        { scheme: "file", pattern: "**/*.test.yml" },
      ],
    },
  );
  context.subscriptions.push(
    vscode.commands.registerCommand("taleforge.showSummary", async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) return;
      const summary = await client.sendRequest("workspace/executeCommand", {
        command: "taleforge.summary",
        arguments: [editor.document.uri.toString()],
      });
      if (!summary) vscode.window.showInformationMessage("Taleforge: this file is not a world.");
      else vscode.window.showInformationMessage(summary.text, { modal: true });
    }),
  );
  return client.start();
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
