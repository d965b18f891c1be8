import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { after } from "node:test";
import { fileURLToPath } from "node:url";
import type { CliIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/main.ts";
import { type CheckedWorldFile, readCheckedWorld } from "../../src/world/checked-file.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BASE_WORLD = join(ROOT, "test/fixtures/base.world.json");
export const FIXTURES = join(ROOT, "test/cli/fixtures");

export interface Captured {
  io: CliIo;
  stdout(): string;
  stderr(): string;
}

/** A terminal-less, colour-less console unless told otherwise, with the given stdin. */
export function captureIo(
  options: { stdin?: string | Error; isTTY?: boolean; env?: Record<string, string> } = {},
): Captured {
  let out = "";
  let err = "";
  const io: CliIo = {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
    isTTY: options.isTTY ?? false,
    env: options.env ?? {},
    readStdin: async () => {
      if (options.stdin instanceof Error) throw options.stdin;
      return options.stdin ?? "";
    },
  };
  return { io, stdout: () => out, stderr: () => err };
}

/** Runs a command on a world in-process (graph, map): its exit code and what it printed. */
export async function runWorldCommand(
  command: (file: string, options: Readonly<Record<string, unknown>>, io: CliIo) => Promise<number>,
  file: string,
  options: Record<string, unknown> = {},
  stdin?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const captured = captureIo(stdin === undefined ? {} : { stdin });
  const code = await command(file, options, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

const checkedWorlds = new Map<string, Promise<Extract<CheckedWorldFile, { ok: true }>>>();

/** A world file loaded and validated once per test file, as `taleforge check` sees it. */
export function checkedWorld(file: string): Promise<Extract<CheckedWorldFile, { ok: true }>> {
  let entry = checkedWorlds.get(file);
  if (!entry) {
    entry = readCheckedWorld(file).then((read) => {
      assert.ok(read.ok, `${file} cannot be read`);
      return read;
    });
    checkedWorlds.set(file, entry);
  }
  return entry;
}

/** A fresh folder for files a test writes, removed when the test file ends. */
export function scratchDir(): { dir: string; write(name: string, content: string | Uint8Array): string } {
  const dir = mkdtempSync(join(tmpdir(), "taleforge-cli-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    write(name, content) {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
  };
}

/** The one-line contract for "could not run": a single line, no stack trace. */
export function assertOneLine(text: string): void {
  assert.match(
    text,
    /^taleforge[^\n]*: [^\n]+\n$/,
    `expected one "taleforge...: message" line, got:\n${text}`,
  );
  assert.doesNotMatch(text, /^\s+at /m, "no stack trace");
}

/**
 * Runs `taleforge play` in-process with piped input (stdin not a terminal):
 * one line per entry, the transcript on stdout.
 */
export async function playWith(
  args: string[],
  input: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<{ code: number; out: string; err: string }> {
  const captured = captureIo({ stdin: input.join("\n"), ...(options.env ? { env: options.env } : {}) });
  const io: CliIo = {
    ...captured.io,
    stdin: Readable.from(input.map((line) => `${line}\n`)),
    stdinIsTTY: false,
    cwd: options.cwd ?? ROOT,
  };
  const code = await run(["play", ...args], io);
  return { code, out: captured.stdout(), err: captured.stderr() };
}

/**
 * Runs `taleforge play` in-process as at an 80-column terminal (stdout a TTY, no colour; stdin a TTY
 * unless told otherwise), typing `input`, with `env` added to the environment. Its exit code and
 * what it printed: stdout and readline's prompts (rawStdout), cursor moves removed.
 */
export async function playAtTerminal(
  args: string[],
  input: string[],
  env: Record<string, string> = {},
  stdinIsTTY = true,
): Promise<{ code: number; out: string }> {
  const captured = captureIo({ isTTY: true, env: { NO_COLOR: "1", ...env } });
  let raw = "";
  const stdin = new PassThrough();
  const io: CliIo = {
    ...captured.io,
    stdin,
    stdinIsTTY,
    columns: 80,
    rawStdout: (text) => {
      raw += text;
    },
    cwd: ROOT,
  };
  const running = run(["play", ...args], io);
  for (const line of input) stdin.write(`${line}\r`);
  stdin.end();
  const code = await running;
  return { code, out: (captured.stdout() + raw).replace(/\u001b\[\d*[A-Za-z]/g, "") };
}
