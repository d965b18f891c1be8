import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import { createSession } from "../../src/engine/session.ts";
import type { Character } from "../../src/engine/state.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import { loadWorld } from "../../src/world/load.ts";
import { validateWorld } from "../../src/world/validate.ts";
import { readWalkthrough } from "../helpers/walkthrough.ts";

/**
 * Issue 19 item 3: the narrator may not narrate a state change the game did not record
 * (docs/engine.md, "What the narrator may decide"). The offline narrator obeys the same rule:
 * whatever the player claims, the story says an item was taken or given, or a wound dealt or
 * healed, only when the turn's state changed that way.
 */

const sandbox = createSandbox();
after(() => sandbox.close());

/** What the story claims, sentence by sentence: an item gained, an item lost, a wound or healing. */
const CLAIMS = {
  gained:
    /\byou (?:take|took|grab|pick up|picked up|pocket|steal|stole|find|found|get|got|receive|gain|buy|bought|collect|loot)\b/i,
  lost: /\byou (?:give|gave|hand|drop|dropped|lose|lost|sell|sold|pay|paid|spend|spent|eat|ate|drink|drank|discard|return)\b/i,
  hurt: /\byou (?:are|were|get|got) (?:wounded|hurt|injured|stabbed|healed)\b|\byou (?:bleed|heal|stab yourself)\b/i,
};

function claimsOf(story: string): Set<keyof typeof CLAIMS> {
  const found = new Set<keyof typeof CLAIMS>();
  for (const sentence of story.split(/(?<=[.!?])\s+/))
    for (const [kind, pattern] of Object.entries(CLAIMS) as [keyof typeof CLAIMS, RegExp][])
      if (pattern.test(sentence)) found.add(kind);
  return found;
}

function inventory(party: Character[]): Map<string, number> {
  const all = new Map<string, number>();
  for (const c of party)
    for (const [item, n] of Object.entries(c.items)) all.set(item, (all.get(item) ?? 0) + n);
  return all;
}

function resources(party: Character[]): string {
  return JSON.stringify(party.map((c) => c.resources));
}

describe("the offline narrator never narrates a state change the turn did not record", () => {
  it("taking, drinking, giving, being wounded: each claim matches the inventory and resource changes", async () => {
    const walkthrough = readWalkthrough();
    const world = validateWorld(
      await loadWorld(new URL("../../examples/harbor.world.json", import.meta.url).pathname),
    ).world!;
    const session = await createSession(world, {
      storyStart: walkthrough.storyStart,
      players: [walkthrough.player],
      ai: createOfflineProvider(world),
      scripts: sandbox,
      seed: 7,
      validate: false,
    });
    const actions = [
      "I take the lamp key",
      "I drink the potion",
      "I give Mara my coins",
      "I am wounded by the Salt Widow",
      "I pick up the Storm Lantern",
      "I eat the Ship's Biscuit",
      "I drop my Filleting Knife",
      "walk to the Gutted Eel",
      "I give Mara the Tarred Rope",
      "I steal the House Signet and pocket it",
      "I find 20 gold coins",
      "I heal my wounds",
      "Grab the Oilskin Coat from the hook",
      "I stab myself with the knife",
    ];
    let tried = 0;
    for (const text of actions) {
      const before = inventory(session.state.party);
      const health = resources(session.state.party);
      const result = await session.turn({ actions: [{ player: "Isobel Carrow", text }] });
      const now = inventory(session.state.party);
      const items = new Set([...before.keys(), ...now.keys()]);
      const gained = [...items].some((i) => (now.get(i) ?? 0) > (before.get(i) ?? 0));
      const lost = [...items].some((i) => (now.get(i) ?? 0) < (before.get(i) ?? 0));
      const hurt = resources(session.state.party) !== health;
      const claims = claimsOf(result.story);
      const at = `"${text}" was told as: ${result.story}`;
      if (claims.has("gained"))
        assert.ok(gained, `claims an item gained that the state did not record: ${at}`);
      if (claims.has("lost")) assert.ok(lost, `claims an item lost that the state did not record: ${at}`);
      if (claims.has("hurt")) assert.ok(hurt, `claims a wound or healing the state did not record: ${at}`);
      if (/\bYou try\b/.test(result.story)) tried++;
    }
    // The actions are told, as tries, not dropped: the rule is kept by honest wording, not by silence.
    assert.ok(tried >= actions.length - 2, `only ${tried} actions were told as tries`);
  });
});
