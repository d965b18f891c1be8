import {
  type CompletionList,
  type Connection,
  createConnection,
  type InitializeResult,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocumentSyncKind,
  TextDocuments,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { codeActionsFor } from "./actions.ts";
import { completionAt } from "./completion.ts";
import { fileNameOf, isPlaytestFile, isWorldFile, WorldDocument } from "./document.ts";
import { hoverAt } from "./hover.ts";
import { jsonService } from "./json-service.ts";
import { definitionAt, prepareRenameAt, referencesAt, renameAt } from "./navigation.ts";
import { type OpenWorld, playtestCompletion, playtestDiagnostics } from "./playtest.ts";
import { toLspDiagnostic } from "./ranges.ts";
import { summarise } from "./summary.ts";
import { documentSymbols } from "./symbols.ts";

/** How long the text must rest before it is checked again: short, since check itself is fast. */
export const DEBOUNCE_MS = 25;
/** The command that returns a world's summary (counts, problems, unreachable quests). */
export const SUMMARY_COMMAND = "taleforge.summary";
/** Larger texts are not analysed (the loader's own limit is far above real worlds; this bounds the editor's copy). */
const MAX_TEXT = 64 * 1024 * 1024;

export interface ServerOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  debounceMs?: number;
}

/**
 * `taleforge lsp`: the language server over stdio. On each change of a world
 * file it publishes check's diagnostics as soon as the text rests, then lint's
 * (slower: it follows what can happen in play) in a second message, unless
 * the text changed meanwhile.
 */
export function startServer(options: ServerOptions): Connection {
  const connection = createConnection(
    new StreamMessageReader(options.input as never),
    new StreamMessageWriter(options.output as never),
  );
  const debounce = options.debounceMs ?? DEBOUNCE_MS;
  const documents = new TextDocuments(TextDocument);
  const worlds = new Map<string, WorldDocument>();
  const timers = new Map<string, NodeJS.Timeout>();

  const worldOf = (document: TextDocument): WorldDocument | undefined => {
    if (!isWorldFile(document.uri, document.getText()) || document.getText().length > MAX_TEXT)
      return undefined;
    let world = worlds.get(document.uri);
    if (!world || world.version !== document.version) {
      world = new WorldDocument(document.uri, document.version, document.getText());
      worlds.set(document.uri, world);
    }
    return world;
  };

  const publish = (document: TextDocument) => {
    const uri = document.uri;
    if (isPlaytestFile(uri)) {
      void playtestDiagnostics(document, openWorld).then(
        (diagnostics) => {
          // A change that arrived while the world was read wins.
          if (documents.get(uri)?.version === document.version)
            connection.sendDiagnostics({ uri, version: document.version, diagnostics });
        },
        (error) =>
          guarded(() => {
            throw error;
          }),
      );
      return;
    }
    const world = worldOf(document);
    if (!world) return;
    const checked = world.check().map((d) => toLspDiagnostic(document, d));
    connection.sendDiagnostics({ uri, version: document.version, diagnostics: checked });
    // Lint on the next turn of the event loop, so that a change that arrived meanwhile wins.
    const timer = setTimeout(
      () =>
        guarded(() => {
          timers.delete(`${uri}#lint`);
          if (documents.get(uri)?.version !== document.version) return;
          const linted = world.lint().map((d) => toLspDiagnostic(document, d));
          // Sent even when lint adds nothing: a client (and the benchmark) sees that the analysis is complete.
          connection.sendDiagnostics({
            uri,
            version: document.version,
            diagnostics: [...checked, ...linted],
          });
        }),
      0,
    );
    timers.set(`${uri}#lint`, timer);
  };

  /** The open world file at a path, for the play-tests that name it. */
  const openWorld: OpenWorld = (path) => {
    for (const document of documents.all()) if (fileNameOf(document.uri) === path) return worldOf(document);
    return undefined;
  };

  /** Work outside a request: a failure is logged to the editor, never the end of the server. */
  const guarded = (work: () => void) => {
    try {
      work();
    } catch (error) {
      connection.console.error(`taleforge lsp: ${String((error as Error)?.stack ?? error)}`);
    }
  };

  const schedule = (document: TextDocument) => {
    for (const key of [document.uri, `${document.uri}#lint`]) {
      clearTimeout(timers.get(key));
      timers.delete(key);
    }
    timers.set(
      document.uri,
      setTimeout(() => {
        timers.delete(document.uri);
        const current = documents.get(document.uri);
        if (current) guarded(() => publish(current));
      }, debounce),
    );
  };

  connection.onInitialize(
    (): InitializeResult => ({
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        completionProvider: { triggerCharacters: ['"', ".", ":"] },
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        documentSymbolProvider: true,
        codeActionProvider: { codeActionKinds: ["quickfix"] },
        foldingRangeProvider: true,
        documentFormattingProvider: true,
        executeCommandProvider: { commands: [SUMMARY_COMMAND] },
      },
      serverInfo: { name: "taleforge" },
    }),
  );

  documents.onDidOpen((e) => schedule(e.document));
  documents.onDidChangeContent((e) => {
    schedule(e.document);
    // The play-tests open beside a world check their names against its new text.
    if (!isPlaytestFile(e.document.uri))
      for (const other of documents.all()) if (isPlaytestFile(other.uri)) schedule(other);
  });
  documents.onDidClose((e) => {
    for (const key of [e.document.uri, `${e.document.uri}#lint`]) clearTimeout(timers.get(key));
    worlds.delete(e.document.uri);
    connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  /** A handler over the world under a request; nothing for other files. */
  const on = <T>(uri: string, fallback: T, run: (world: WorldDocument, document: TextDocument) => T): T => {
    const document = documents.get(uri);
    const world = document && worldOf(document);
    return document && world && !world.tooDeep ? run(world, document) : fallback;
  };

  connection.onHover((p) => on(p.textDocument.uri, null, (w, d) => hoverAt(w, d, p.position)));
  connection.onCompletion((p) => {
    const document = documents.get(p.textDocument.uri);
    if (document && isPlaytestFile(document.uri)) return playtestCompletion(document, p.position, openWorld);
    return on(
      p.textDocument.uri,
      Promise.resolve<CompletionList>({ isIncomplete: false, items: [] }),
      (w, d) => completionAt(w, d, p.position),
    );
  });
  connection.onDefinition((p) => on(p.textDocument.uri, [], (w, d) => definitionAt(w, d, p.position)));
  connection.onReferences((p) =>
    on(p.textDocument.uri, [], (w, d) => referencesAt(w, d, p.position, p.context.includeDeclaration)),
  );
  connection.onPrepareRename((p) =>
    on(p.textDocument.uri, null, (w, d) => prepareRenameAt(w, d, p.position)),
  );
  connection.onRenameRequest((p) =>
    on(p.textDocument.uri, null, (w, d) => renameAt(w, d, p.position, p.newName)),
  );
  connection.onDocumentSymbol((p) => on(p.textDocument.uri, [], (w, d) => documentSymbols(w.tree, d)));
  connection.onCodeAction((p) =>
    on(p.textDocument.uri, [], (w, d) => codeActionsFor(w, d, p.context.diagnostics)),
  );
  connection.onFoldingRanges((p) => on(p.textDocument.uri, [], (_w, d) => jsonService().getFoldingRanges(d)));
  connection.onDocumentFormatting((p) =>
    on(p.textDocument.uri, [], (_w, d) =>
      jsonService().format(d, undefined, {
        tabSize: p.options.tabSize,
        insertSpaces: p.options.insertSpaces,
      }),
    ),
  );
  connection.onExecuteCommand((p) => {
    if (p.command !== SUMMARY_COMMAND) return null;
    const uri = typeof p.arguments?.[0] === "string" ? p.arguments[0] : undefined;
    return uri ? on(uri, null, (w) => summarise(w)) : null;
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}
