import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  createMessageConnection,
  type MessageConnection,
  type PublishDiagnosticsParams,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver/node";

const BIN = fileURLToPath(new URL("../../bin/taleforge.js", import.meta.url));

/**
 * A language client for tests: starts `taleforge lsp --stdio` as editors do
 * and talks the protocol to it over the child's stdin and stdout.
 */
export class TestClient {
  readonly child: ChildProcess;
  readonly connection: MessageConnection;
  readonly published: PublishDiagnosticsParams[] = [];
  #waiters: {
    test: (p: PublishDiagnosticsParams) => boolean;
    resolve: (p: PublishDiagnosticsParams) => void;
  }[] = [];
  stderr = "";

  constructor() {
    this.child = spawn(process.execPath, [BIN, "lsp", "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr!.on("data", (chunk) => {
      this.stderr += String(chunk);
    });
    this.connection = createMessageConnection(
      new StreamMessageReader(this.child.stdout!),
      new StreamMessageWriter(this.child.stdin!),
    );
    this.connection.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => {
      this.published.push(p);
      this.#waiters = this.#waiters.filter((w) => {
        if (!w.test(p)) return true;
        w.resolve(p);
        return false;
      });
    });
    this.connection.listen();
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.connection.sendRequest(method, params) as Promise<T>;
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.connection.sendNotification(method, params);
  }

  /** The next publication that passes `test` (already received ones included, newest first). */
  diagnostics(
    test: (p: PublishDiagnosticsParams) => boolean,
    timeoutMs = 60_000,
  ): Promise<PublishDiagnosticsParams> {
    const seen = [...this.published].reverse().find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching diagnostics within ${timeoutMs} ms; stderr: ${this.stderr}`)),
        timeoutMs,
      );
      this.#waiters.push({
        test,
        resolve: (p) => {
          clearTimeout(timer);
          resolve(p);
        },
      });
    });
  }

  async initialize(): Promise<{ capabilities: Record<string, unknown> }> {
    const result = await this.request<{ capabilities: Record<string, unknown> }>("initialize", {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
    });
    await this.notify("initialized", {});
    return result;
  }

  open(uri: string, text: string, version = 1): Promise<void> {
    return this.notify("textDocument/didOpen", { textDocument: { uri, languageId: "json", version, text } });
  }

  /** Ends the server as an editor does; resolves to its exit code. */
  async close(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.child.once("exit", (code) => resolve(code)));
    await this.request("shutdown", null);
    await this.notify("exit", null);
    const code = await exited;
    this.connection.dispose();
    return code;
  }
}

/** The protocol position (0-based line and UTF-16 character) of an offset. */
export function positionOf(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  return { line, character: offset - (before.lastIndexOf("\n") + 1) };
}

/** The range of the `nth` occurrence (0-based) of `needle` in `text`. */
export function rangeOf(
  text: string,
  needle: string,
  nth = 0,
): { start: ReturnType<typeof positionOf>; end: ReturnType<typeof positionOf> } {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`${needle} occurs fewer than ${nth + 1} times`);
  }
  return { start: positionOf(text, at), end: positionOf(text, at + needle.length) };
}
