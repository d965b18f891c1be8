import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/taleforge.js", import.meta.url));

/** Frames a JSON-RPC message as the protocol does (Content-Length header). */
function frame(message: unknown): string {
  const body = JSON.stringify(message);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

function run(messages: unknown[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, "lsp", "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (chunk) => {
      stdout += String(chunk);
      // Send the next message once the previous request has its answer.
      if (stdout.includes('"id":2') && messages.length > 0) child.stdin.write(frame(messages.shift()));
    });
    child.on("exit", (code) => resolve({ code, stdout }));
    child.stdin.write(frame(messages.shift()));
    child.stdin.write(frame(messages.shift()));
  });
}

test("lsp: answers initialize over stdio and exits 0 after shutdown and exit", async () => {
  const { code, stdout } = await run([
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { processId: null, rootUri: null, capabilities: {} },
    },
    { jsonrpc: "2.0", id: 2, method: "shutdown" },
    { jsonrpc: "2.0", method: "exit" },
  ]);
  assert.match(stdout, /^Content-Length: \d+\r\n\r\n/);
  assert.match(stdout, /"serverInfo":\{"name":"taleforge"\}/);
  assert.equal(code, 0);
});

test("lsp: exits 1 when the editor sends exit without shutdown", async () => {
  const { code } = await run([
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { processId: null, rootUri: null, capabilities: {} },
    },
    { jsonrpc: "2.0", method: "exit" },
  ]);
  assert.equal(code, 1);
});
