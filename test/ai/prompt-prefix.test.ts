import assert from "node:assert/strict";
import { test } from "node:test";
import { loreQuery, selectLore } from "../../src/ai/lore.ts";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import { narrationPrompt } from "../../src/ai/prompts/narration.ts";
import type { NarrationRequest } from "../../src/engine/ports.ts";
import { createSession } from "../../src/engine/session.ts";
import { harbor } from "../helpers/author.ts";
import { readWalkthrough } from "../helpers/walkthrough.ts";

/**
 * Issue 19 item 7: consecutive narration prompts share a long prefix, so a
 * provider's prompt cache (1,024 tokens at least with the largest provider)
 * can serve it. The example world's walkthrough is played offline; each
 * turn's narration request is turned into the prompt the OpenAI-compatible
 * provider would send, and the prefix shared with the previous turn's prompt
 * is measured at four characters a token, as the `ai` benchmark does.
 */
const CACHE_MIN_TOKENS = 1_024;

function sharedPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

test("consecutive narration prompts share a prefix a provider cache can serve", async () => {
  const world = harbor();
  const walkthrough = readWalkthrough();
  const offline = createOfflineProvider(world);
  const requests: NarrationRequest[] = [];
  const ai: typeof offline = {
    ...offline,
    narrate: (request, onChunk, signal) => {
      requests.push(request);
      return offline.narrate(request, onChunk, signal);
    },
  };
  const session = await createSession(world, {
    storyStart: walkthrough.storyStart,
    players: [walkthrough.player],
    ai,
    seed: 7,
    validate: false,
  });
  for (const step of walkthrough.steps)
    await session.turn({ actions: [{ player: walkthrough.player.premade, text: step.command }] });

  const prompts: string[] = [];
  for (const request of requests.filter((r) => !r.opening)) {
    const lore = await selectLore(world, loreQuery(request));
    const messages = narrationPrompt(world, request, { gameMode: null, lore });
    prompts.push(messages.map((m) => m.content).join("\n"));
  }
  assert.ok(prompts.length >= 10, `${prompts.length} narration prompts`);
  const sharedTokens = prompts.slice(1).map((p, i) => Math.floor(sharedPrefix(prompts[i]!, p) / 4));
  const cacheable = sharedTokens.filter((t) => t >= CACHE_MIN_TOKENS).length;
  // A turn that folds the summary changes an early block; every other turn keeps the prefix.
  assert.ok(
    cacheable >= Math.ceil(sharedTokens.length * 0.75),
    `shared prefix (tokens) per turn: ${sharedTokens.join(", ")}`,
  );
});
