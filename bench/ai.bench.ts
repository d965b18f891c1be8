import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import type { BenchContext, BenchModule } from "./bench-module.ts";
import { median, p99 } from "./measure.ts";
import { formatTable } from "./table.ts";

/**
 * `npm run bench -- ai` (issue 19): 40 turns of the example world with the
 * OpenAI-compatible provider against a local mock server on 127.0.0.1 that
 * adds a fixed latency to every call. Prints, per turn and in all: model
 * calls, prompt and answer tokens, the share of prompt tokens a provider
 * cache could serve (the longest prefix shared with the previous request of
 * the same kind, counted only from 1,024 tokens as the largest provider
 * does), and the time to the first narrated token.
 *
 * `TALEFORGE_BENCH_SRC=/path/to/other/checkout/src` measures another
 * version of the code with the same server (the "before" figures of
 * docs/benchmarks.md come from the commit before issue 19).
 */
const TURNS = 40;
const LATENCY_MS = 150;
const CACHE_MIN_TOKENS = 1_024;

const bench: BenchModule = {
  name: "ai",
  title: `The AI turn over a local OpenAI-protocol server (${LATENCY_MS} ms per call): calls, tokens, cache, first token`,
  run,
};
export default bench;

interface Call {
  kind: string;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
}

/** A mock model: fixed latency, plausible answers, usage counted at four characters a token. */
class MockModel {
  readonly calls: Call[] = [];
  private readonly last = new Map<string, string>();
  private server: Server | null = null;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
        setTimeout(() => this.answer(body, res), LATENCY_MS);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  close(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  // biome-ignore lint/suspicious/noExplicitAny: the request body is read field by field.
  private answer(body: any, res: import("node:http").ServerResponse): void {
    const name: string = body.response_format?.json_schema?.name ?? (body.stream ? "narration" : "plain");
    const kind = name.replace("taleforge_", "");
    const prompt = (body.messages as { content: string }[]).map((m) => m.content).join("\n");
    const promptTokens = Math.ceil(prompt.length / 4);
    const previous = this.last.get(kind) ?? "";
    let shared = 0;
    while (shared < previous.length && shared < prompt.length && previous[shared] === prompt[shared])
      shared++;
    const sharedTokens = Math.floor(shared / 4);
    const cachedTokens = sharedTokens >= CACHE_MIN_TOKENS ? sharedTokens - (sharedTokens % 128) : 0;
    this.last.set(kind, prompt);
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: 0,
      prompt_tokens_details: { cached_tokens: cachedTokens },
    };
    const record = (completion: string) => {
      usage.completion_tokens = Math.ceil(completion.length / 4);
      this.calls.push({ kind, promptTokens, cachedTokens, completionTokens: usage.completion_tokens });
    };
    if (body.stream) {
      const story =
        "The fog lifts a little over the harbour. Gulls wheel above the pier, and somewhere a bell answers the tide. " +
        "You take in the wet planks, the coiled ropes, the faces that turn away when you look at them too long.";
      record(story);
      res.writeHead(200, { "content-type": "text/event-stream" });
      const words = story.split(/(?<= )/);
      for (const word of words)
        res.write(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: word }, finish_reason: null }] })}\n\n`,
        );
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n`);
      res.write(`data: ${JSON.stringify({ choices: [], usage })}\n\n`);
      res.end("data: [DONE]\n\n");
      return;
    }
    let content: string;
    if (kind === "intent") content = JSON.stringify({ intent: "other", target: null, confidence: 0.9 });
    else if (kind === "judge") {
      const count = (prompt.match(/^\d+\. \[/gm) ?? []).length;
      content = JSON.stringify({
        verdicts: Array.from({ length: count }, (_, i) => ({
          question: i + 1,
          evidence: "none",
          passed: false,
          players: [],
        })),
      });
    } else
      content = JSON.stringify({ summary: "Isobel came to Brinewick and asked about the dark lighthouse." });
    record(content);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "bench",
        object: "chat.completion",
        created: 1,
        model: "bench-model",
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage,
      }),
    );
  }
}

async function run(context: BenchContext): Promise<void> {
  const src = process.env.TALEFORGE_BENCH_SRC ?? new URL("../src/", import.meta.url).pathname;
  const base = pathToFileURL(src.endsWith("/") ? src : `${src}/`);
  const { createOpenAiProvider } = await import(new URL("ai/openai/index.ts", base).href);
  const { createSession } = await import(new URL("engine/session.ts", base).href);
  const world = JSON.parse(readFileSync(new URL("../examples/harbor.world.json", import.meta.url), "utf8"));
  const walkthrough = JSON.parse(
    readFileSync(new URL("../examples/harbor.walkthrough.json", import.meta.url), "utf8"),
  );
  const actions = (walkthrough.steps as { command: string }[])
    .map((s) => s.command)
    .filter((c) => !c.startsWith("/"));

  const model = new MockModel();
  const url = await model.start();
  try {
    const ai = createOpenAiProvider(world, { baseUrl: url, model: "bench-model", timeoutMs: 10_000 });
    const session = await createSession(world, {
      ai,
      seed: 1,
      storyStart: walkthrough.storyStart,
      players: [walkthrough.player],
    });
    const player = session.state.party[0].name as string;
    const firstToken: number[] = [];
    const turnMs: number[] = [];
    const perTurn: { calls: number; prompt: number; cached: number; completion: number }[] = [];
    const progress = context.progress("ai turns", TURNS);
    for (let turn = 0; turn < TURNS; turn++) {
      const before = model.calls.length;
      const started = performance.now();
      let first: number | null = null;
      await session.turn(
        { actions: [{ player, text: actions[turn % actions.length]! }] },
        {
          onChunk: () => {
            first ??= performance.now() - started;
          },
        },
      );
      turnMs.push(performance.now() - started);
      firstToken.push(first ?? Number.NaN);
      const calls = model.calls.slice(before);
      perTurn.push({
        calls: calls.length,
        prompt: calls.reduce((n, c) => n + c.promptTokens, 0),
        cached: calls.reduce((n, c) => n + c.cachedTokens, 0),
        completion: calls.reduce((n, c) => n + c.completionTokens, 0),
      });
      progress.tick();
    }
    progress.stop();
    await ai.close();
    const sum = (pick: (t: (typeof perTurn)[number]) => number) => perTurn.reduce((n, t) => n + pick(t), 0);
    const narration = model.calls.filter((c) => c.kind === "narration").slice(1);
    const sharedNarration = median(
      narration.map((c, i) => (i === 0 ? 0 : Math.min(c.promptTokens, narration[i - 1]!.promptTokens))),
    );
    context.print(`Source: ${src}`);
    context.print(
      formatTable(
        ["figure (40 turns)", "value"],
        [
          ["model calls", `${sum((t) => t.calls)} (${(sum((t) => t.calls) / TURNS).toFixed(2)} a turn)`],
          ["prompt tokens", String(sum((t) => t.prompt))],
          ["answer tokens", String(sum((t) => t.completion))],
          [
            "cacheable prompt tokens (shared prefix >= 1,024)",
            `${sum((t) => t.cached)} (${(
              (100 * sum((t) => t.cached)) /
                Math.max(
                  1,
                  sum((t) => t.prompt),
                )
            ).toFixed(1)} %)`,
          ],
          [
            "narration calls with a cacheable prefix",
            `${narration.filter((c) => c.cachedTokens > 0).length} of ${narration.length} (median narration prompt ${Math.round(sharedNarration)} tokens)`,
          ],
          [
            "time to first narrated token, median / p99",
            `${Math.round(median(firstToken))} / ${Math.round(p99(firstToken))} ms (${LATENCY_MS} ms a call)`,
          ],
          ["turn time, median", `${Math.round(median(turnMs))} ms`],
        ],
      ),
    );
    context.print();
  } finally {
    await model.close();
  }
}
