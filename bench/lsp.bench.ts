import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  createMessageConnection,
  type PublishDiagnosticsParams,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver/node";
import type { BenchContext, BenchModule } from "./bench-module.ts";
import { generateWorld } from "./generate-world.ts";
import { median } from "./measure.ts";
import { formatTable } from "./table.ts";

/** Targets of issue 37, printed next to the figures (never asserted). */
const TARGET_EXAMPLE_MS = 50;
const TARGET_AT_CAP_MS = 300;

interface Figures {
  world: string;
  chars: number;
  /** Change sent -> check's diagnostics published (debounce included). */
  check: number[];
  /** Change sent -> lint's diagnostics published (the whole analysis). */
  lint: number[];
  rssMb: number;
  peakMb: number;
}

/**
 * `taleforge lsp` as an editor runs it (the built CLI when there is one),
 * driven over stdio: each run changes one reference to a name that does not
 * exist and back, and times the change to the publication of check's
 * diagnostics for that version, then to lint's. The server's resident and
 * peak memory are read from /proc after the runs.
 */
async function measure(context: BenchContext, name: string, text: string, runs: number): Promise<Figures> {
  const built = join(context.root, "dist", "taleforge.js");
  const args = existsSync(built)
    ? [built, "lsp", "--stdio"]
    : [join(context.root, "bin", "taleforge.js"), "lsp", "--stdio"];
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const waiting = new Map<number, ((p: PublishDiagnosticsParams) => void)[]>();
  connection.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => {
    const list = waiting.get(p.version ?? -1);
    list?.shift()?.(p);
  });
  connection.listen();
  /** The first and the second publication of a version (check's, then lint's). */
  const publications = (version: number) => {
    const first = new Promise<number>((resolve) => {
      const list = waiting.get(version) ?? [];
      list.push(() => resolve(performance.now()));
      waiting.set(version, list);
    });
    const second = new Promise<number>((resolve) =>
      waiting.get(version)!.push(() => resolve(performance.now())),
    );
    return { first, second };
  };
  await connection.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {} });
  await connection.sendNotification("initialized", {});
  const uri = `file:///bench/${name}.world.json`;
  let version = 1;
  const opened = publications(version);
  await connection.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "json", version, text },
  });
  await opened.second;
  const match = /"currentLocation": ("[^"]+")/.exec(text);
  if (!match) throw new Error(`${name}: no currentLocation to change`);
  const offset = match.index + match[0].length - match[1]!.length;
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  const character = offset - (before.lastIndexOf("\n") + 1);
  const figures: Figures = { world: name, chars: text.length, check: [], lint: [], rssMb: 0, peakMb: 0 };
  let current = match[1]!;
  for (let i = 0; i < runs * 2; i++) {
    const next = i % 2 === 0 ? '"Nowhere At All"' : match[1]!;
    const range = { start: { line, character }, end: { line, character: character + current.length } };
    version++;
    const published = publications(version);
    const start = performance.now();
    await connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version },
      contentChanges: [{ range, text: next }],
    });
    figures.check.push((await published.first) - start);
    figures.lint.push((await published.second) - start);
    current = next;
  }
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  figures.rssMb = kb("VmRSS") / 1024;
  figures.peakMb = kb("VmHWM") / 1024;
  await connection.sendRequest("shutdown");
  await connection.sendNotification("exit");
  connection.dispose();
  return figures;
}

const lsp: BenchModule = {
  name: "lsp",
  title: "Language server: a change to published diagnostics",
  async run(context) {
    const runs = Math.max(3, Math.min(context.runs, 11));
    const example = readFileSync(join(context.root, "examples", "harbor.world.json"), "utf8");
    const atCap = JSON.stringify(generateWorld(1), null, 2);
    const rows = [
      await measure(context, "example", example, runs),
      await measure(context, "at-cap", atCap, runs),
    ];
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    context.print(
      formatTable(
        ["world", "chars", "change -> check", "change -> lint", "target", "server RSS", "server peak"],
        rows.map((r) => [
          r.world,
          String(r.chars),
          `${ms(median(r.check))} (max ${ms(Math.max(...r.check))})`,
          `${ms(median(r.lint))} (max ${ms(Math.max(...r.lint))})`,
          ms(r.world === "example" ? TARGET_EXAMPLE_MS : TARGET_AT_CAP_MS),
          `${r.rssMb.toFixed(0)} MB`,
          `${r.peakMb.toFixed(0)} MB`,
        ]),
      ),
    );
    context.print(`Medians of ${runs * 2} changes each; the debounce (25 ms) is included.`);
  },
};

export default lsp;
