import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { isDeepStrictEqual } from "node:util";
import { DataAi, start } from "./helpers.ts";

/**
 * docs/engine.md shows the real result of one turn on a small world. This test
 * plays that turn again and checks that the page still shows exactly what the
 * engine returns, so the worked example cannot drift from the code.
 */
test("docs/engine.md's worked example is the engine's real output", async () => {
  const ai = new DataAi({
    intent: { intent: "other" },
    story: (r) =>
      r.opening
        ? "Dawn light spills over the millyard."
        : "You tug the rope and the mill bell clangs; a heron lifts off the race.",
    judge: ({ question }) => question.query.includes("heron"),
  });
  const { session } = await start(
    {
      triggers: {
        ring_bell: {
          name: "ring_bell",
          recurring: true,
          conditions: [{ type: "action-text", operator: "contains", value: "bell" }],
          effects: [{ type: "write-number", key: "rings", operator: "add", value: 1 }],
        },
        heron_omen: {
          name: "heron_omen",
          conditions: [
            { type: "game-tick", operator: "greaterThan", value: 0 },
            { type: "story", query: "A heron takes flight near the mill." },
          ],
          effects: [
            { type: "story", instruction: "Let the heron circle back once more." },
            { type: "known-entity", entity: "Ada Reed", operator: "set", value: true },
          ],
        },
        fen_visit: {
          name: "fen_visit",
          conditions: [{ type: "party-location", operator: "equals", value: "Fen Hut" }],
          effects: [{ type: "party-next-step-set", text: "Ask Ada about the flock.", source: "objective" }],
        },
      },
    },
    { ai, seed: 42 },
  );
  const result = await session.turn({ actions: [{ player: "Player", text: "I ring the bell" }] });
  const page = readFileSync(new URL("../../docs/engine.md", import.meta.url), "utf8");
  // Compared as data: the formatter may re-space the JSON block, the content must not change.
  const blocks = [...page.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => parseOrNull(m[1]!));
  const printed = JSON.parse(JSON.stringify(result)) as unknown;
  assert.ok(
    blocks.some((block) => isDeepStrictEqual(block, printed)),
    `docs/engine.md should show:\n${JSON.stringify(printed, null, 2)}`,
  );
});

/** Other JSON blocks on the page are excerpts (with "..."); they simply do not match. */
function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
