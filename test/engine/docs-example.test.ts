import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
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
  const printed = compact(result, "");
  assert.ok(page.includes(`\`\`\`json\n${printed}\n\`\`\``), `docs/engine.md should show:\n${printed}`);
});

/** Pretty JSON with short objects and arrays kept on one line (the docs' format). */
function compact(value: unknown, indent: string): string {
  const flat = JSON.stringify(value);
  if (flat === undefined) return "null";
  if (flat.length + indent.length <= 100 || value === null || typeof value !== "object") return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value))
    return `[\n${value.map((v) => inner + compact(v, inner)).join(",\n")}\n${indent}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${compact(v, inner)}`).join(",\n")}\n${indent}}`;
}
