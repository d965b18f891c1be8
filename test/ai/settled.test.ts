import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SettledMemory } from "../../src/ai/openai/settled.ts";
import { narrationPrompt } from "../../src/ai/prompts/narration.ts";
import type { ChatMessage, LoreEntry } from "../../src/ai/prompts/types.ts";
import { traitHolding } from "../../src/ai/prompts/world-text.ts";
import type { NarrationRequest } from "../../src/engine/ports.ts";
import type { World } from "../../src/world/schema/index.ts";
import { harbor } from "../helpers/author.ts";
import { exampleTurn } from "./prompts-fixtures.ts";

/**
 * Issue 39: what the narration prompt's stable part lists (the party's traits,
 * the lore, the standing guidance) is settled when the turns since the summary
 * begin, so a trait gained, a lore entry picked or a recurring rule that starts
 * firing later goes after the earlier turns and leaves the cached prefix, with
 * the whole history, as it was. Every held trait, pick and standing text is
 * still listed, once.
 */

const world = harbor() as unknown as World;
const ISOBEL = "Isobel Carrow";
const STANDING = "Gulls circle the party wherever it goes.";
const lore = (key: string): LoreEntry => ({
  key,
  text: `${key}: what everyone in Brinewick knows about it.`,
});

/** A turn at the Gutted Eel with `turns` earlier turns, Isobel holding `traits`, and one standing instruction. */
function turnWith(traits: string[], turns: number, summary = ""): NarrationRequest {
  const request = exampleTurn(world);
  const party = request.scene.party.map((m) => (m.name === ISOBEL ? { ...m, traits } : { ...m, traits: [] }));
  const history = Array.from({ length: turns }, (_, i) => ({
    tick: i + 1,
    actions: [{ player: ISOBEL, text: `I do thing ${i + 1}.` }],
    story: `Story of turn ${i + 1}. ${"The fog lies thick on the quay and the bell rings. ".repeat(8)}`,
  }));
  return {
    ...request,
    game: "g1",
    summary,
    instructions: [STANDING],
    scene: { ...request.scene, party, recentStory: history.map((h) => h.story) },
    context: { storyStart: "", sheets: [], turns: history, standing: [0] },
  };
}

const stable = (messages: ChatMessage[]) => messages[1]!.content;
const latest = (messages: ChatMessage[]) => messages.at(-1)!.content;
const count = (text: string, part: string) => text.split(part).length - 1;

describe("the narration prompt with settled parts", () => {
  test("settled traits, lore and guidance come before the earlier turns, the rest after them, each once", () => {
    const messages = narrationPrompt(world, turnWith(["Dockborn", "Blessed"], 2), {
      gameMode: null,
      lore: [lore("The Fog"), lore("Wrecking")],
      settledTraits: new Set([traitHolding(ISOBEL, "Dockborn")]),
      settledLore: [lore("Wrecking"), lore("The Dark Lamp")],
      settledStanding: [],
    });
    const text = messages.map((m) => m.content).join("\n");
    assert.match(stable(messages), /- Dockborn \(Isobel Carrow\)/);
    assert.doesNotMatch(stable(messages), /Blessed/);
    assert.match(latest(messages), /## Traits gained lately[^\n]*\n- Blessed \(Isobel Carrow\)/);
    assert.match(stable(messages), /## Lore of the story lately\n- Wrecking: [^\n]*\n- The Dark Lamp: /);
    assert.match(latest(messages), /## Lore that may matter now\n- The Fog: /);
    assert.doesNotMatch(latest(messages), /Wrecking/);
    assert.doesNotMatch(stable(messages), /Gulls/);
    assert.match(latest(messages), /## More standing guidance[^\n]*\n- Gulls circle the party/);
    for (const part of [
      "Dockborn (",
      "Blessed (",
      "- The Fog:",
      "- Wrecking:",
      "- The Dark Lamp:",
      "Gulls circle",
    ])
      assert.equal(count(text, part), 1, part);
  });

  test("guidance settled is listed before the earlier turns, and the prompt without settled parts is unchanged", () => {
    const request = turnWith(["Dockborn"], 2);
    const settled = narrationPrompt(world, request, {
      gameMode: null,
      lore: [],
      settledTraits: new Set([traitHolding(ISOBEL, "Dockborn")]),
      settledLore: [],
      settledStanding: [STANDING],
    });
    assert.match(stable(settled), /## Standing guidance[^\n]*\n- Gulls circle the party/);
    assert.doesNotMatch(latest(settled), /Gulls|standing guidance/i);
    const plain = narrationPrompt(world, request, { gameMode: null, lore: [] });
    assert.match(latest(plain), /## Standing guidance[^\n]*\n- Gulls circle the party/);
    assert.match(stable(plain), /- Dockborn \(Isobel Carrow\)/);
    assert.doesNotMatch(all(plain), /gained lately|Lore of the story lately|More standing/);
  });
});

describe("SettledMemory", () => {
  test("a trait gained mid-window keeps the prefix: the next prompt starts with the whole previous one but its last message", () => {
    const memory = new SettledMemory(world);
    const prompt = (request: NarrationRequest, picks: LoreEntry[]) =>
      narrationPrompt(world, request, { gameMode: null, lore: picks, ...memory.for(request, picks) });
    const first = prompt(turnWith(["Dockborn"], 6), [lore("The Fog")]);
    const second = prompt(turnWith(["Dockborn", "Blessed"], 7), [lore("Wrecking")]);
    const text = (messages: ChatMessage[]) => messages.map((m) => `<${m.role}>\n${m.content}\n`).join("");
    const before = text(first.slice(0, -1));
    assert.ok(
      text(second).startsWith(before),
      "the second prompt starts with the first one's settled part and turns",
    );
    assert.match(latest(second), /Blessed \(Isobel Carrow\)/);
    assert.match(latest(second), /- Wrecking: /);
    assert.match(stable(second), /- The Fog: /);
  });

  test("settles again on a new summary, a settled trait lost, guidance no longer sent, or much gained early", () => {
    const memory = new SettledMemory(world);
    const picks = [lore("The Fog")];
    const held = (request: NarrationRequest) => [...(memory.for(request, picks)?.settledTraits ?? [])];
    assert.equal(memory.for({ ...turnWith([], 1), opening: true }, picks), undefined, "the opening has none");
    assert.deepEqual(held(turnWith(["Dockborn"], 6)), [traitHolding(ISOBEL, "Dockborn")]);
    // A short trait gained with six turns of history: kept after them.
    assert.deepEqual(held(turnWith(["Dockborn", "Blessed"], 7)), [traitHolding(ISOBEL, "Dockborn")]);
    // A new summary starts a new window: settled again, the new lore picks with it.
    const renewed = memory.for(turnWith(["Dockborn", "Blessed"], 3, "So far."), [lore("Wrecking")]);
    assert.equal(renewed?.settledTraits.size, 2);
    assert.deepEqual(
      renewed?.settledLore.map((l) => l.key),
      ["Wrecking"],
    );
    assert.deepEqual(renewed?.settledStanding, [STANDING]);
    // A settled trait lost: settled again without it.
    assert.deepEqual(held(turnWith(["Blessed"], 4, "So far.")), [traitHolding(ISOBEL, "Blessed")]);
    // Guidance no longer sent: settled again without it.
    const quiet = { ...turnWith(["Blessed"], 5, "So far."), instructions: [] };
    quiet.context = { ...quiet.context!, standing: [] };
    assert.deepEqual(memory.for(quiet, picks)?.settledStanding, []);
    // Early in a window (one short turn of history), a gained trait is settled at once.
    const early = new SettledMemory(world);
    early.for(turnWith(["Dockborn"], 1), picks);
    assert.equal(early.for(turnWith(["Dockborn", "Blessed", "Noble"], 1), picks)?.settledTraits.size, 3);
  });
});

function all(messages: ChatMessage[]): string {
  return messages.map((m) => m.content).join("\n");
}
