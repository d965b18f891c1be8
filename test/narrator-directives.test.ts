import assert from "node:assert/strict";
import { basename } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createOfflineProvider } from "../src/ai/offline/index.ts";
import type { NarrationRequest } from "../src/engine/ports.ts";
import { createSession } from "../src/engine/session.ts";
import { createSandbox } from "../src/sandbox/index.ts";
import { directiveOf } from "../src/world/directive.ts";
import { loadWorld } from "../src/world/load.ts";
import type { World } from "../src/world/schema/index.ts";
import { runnableWorld, validateWorld } from "../src/world/validate.ts";
import { sharedWorldFiles } from "./helpers/author.ts";

/**
 * Issue 35 (and issue 40 item 6): text a world writes for the narrator never
 * reaches the player, checked against the SOURCE, not against the phrases the
 * narrator-only filter knows. For every story start and every `story` effect
 * of the example world, of our fixtures and of the shared worlds (read from
 * ../shared/worlds at test time), the offline narrator tells it, and:
 *
 * - a text taken as written for the narrator (the texts `lint` reports, and
 *   those labelled below by a person) shows no run of five of its words on
 *   screen, whatever its wording, except words the world also gives the
 *   player (place and people descriptions, the start's description);
 * - a story start told as story is on screen whole: every line of it, so a
 *   trigger that looks for its words in the opening finds them;
 * - no run of five words of `aiInstructions` is ever on screen.
 */

const sandbox = createSandbox();
after(() => sandbox.close());

const fixture = (name: string) =>
  fileURLToPath(new URL(`./fixtures/real-worlds/${name}.world.json`, import.meta.url));
const DIRECTIVES = fixture("directives");
const EXAMPLE = fileURLToPath(new URL("../examples/harbor.world.json", import.meta.url));

/**
 * Labels written by a person, not by the filter: which texts are written for
 * the narrator. Keys are "start:<name>" and "trigger:<key>".
 */
const LABELLED: Record<string, Record<string, boolean>> = {
  [DIRECTIVES]: {
    "start:Barge Contract": true,
    "start:Random": true,
    "start:Mill Dawn": false,
    "trigger:night_orders": true,
    "trigger:posters": true,
    "trigger:gutter": true,
    "trigger:wheel_creak": false,
  },
  "fumbleforce__hedoria-world__hedoria.merged-from-world-tabs.json": {
    "start:Random": true,
    "start:Marches Cold Dawn": false,
    "start:Dispatch Late": false,
  },
};

function labelsOf(file: string): Record<string, boolean> {
  return LABELLED[file] ?? LABELLED[basename(file)] ?? {};
}

/** The text with quotations cut out (what a character says, or a passage asked for verbatim, is story). */
function unquoted(text: string): string {
  return text.replace(/“[^”]*”|"[^"\n]*"|(^|[\s:(—-])'[^'\n]*[.,!?]'/g, "$1\n");
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’']/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "");
}

/** Runs of five words inside one sentence-like stretch. */
function grams(text: string): Set<string> {
  const out = new Set<string>();
  for (const part of unquoted(text).split(/[.!?;:\n—]+/)) {
    const w = words(part);
    for (let i = 0; i + 5 <= w.length; i++) out.add(w.slice(i, i + 5).join(" "));
  }
  return out;
}

/** What the world gives the player anyway: places, people, starts' descriptions, names. */
function publicText(world: World): Set<string> {
  const texts: string[] = [];
  for (const [name, l] of Object.entries(world.locations ?? {})) {
    texts.push(name, l.basicInfo ?? "");
    for (const [area, a] of Object.entries(l.areas ?? {})) texts.push(area, a.description ?? "");
  }
  for (const [name, n] of Object.entries(world.npcs ?? {})) texts.push(name, n.basicInfo ?? "");
  for (const s of Object.values(world.storyStarts ?? {})) texts.push(s.description ?? "");
  for (const r of Object.values(world.regions ?? {})) texts.push(r.basicInfo ?? "");
  return grams(texts.join("\n"));
}

/** The runs of five words of `source` that are on `screen` and not given to the player anyway. */
function leaked(source: string, screen: string, given: Set<string>): string[] {
  const screenWords = ` ${words(screen).join(" ")} `;
  return [...grams(source)].filter((g) => !given.has(g) && screenWords.includes(` ${g} `));
}

function aiInstructionTexts(world: World): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === "string") out.push(v);
    else if (v && typeof v === "object") for (const x of Object.values(v)) walk(x);
  };
  walk((world as unknown as { aiInstructions?: unknown }).aiInstructions);
  return out;
}

async function worldOf(file: string): Promise<World> {
  const loaded = await loadWorld(file);
  const checked = validateWorld(loaded);
  // Rule errors (a quest without an init trigger) leave a world that plays, as `taleforge play` runs it.
  const world = runnableWorld(loaded, checked);
  assert.ok(
    world,
    `${basename(file)} does not load: ${checked.diagnostics.map((d) => `${d.code} ${d.message}`).join("\n")}`,
  );
  return world;
}

function storyEffects(world: World): { key: string; text: string }[] {
  const out: { key: string; text: string }[] = [];
  for (const [key, t] of Object.entries(world.triggers ?? {}))
    for (const e of t.effects ?? [])
      if (e.type === "story" && typeof e.instruction === "string") out.push({ key, text: e.instruction });
  for (const [key, event] of Object.entries(world.narrativeEvents ?? {}))
    for (const e of event.onCompleteEffects ?? [])
      if (e.type === "story" && typeof e.instruction === "string") out.push({ key, text: e.instruction });
  return out;
}

/** Plays every story start's opening and tells every story effect; asserts the source-based checks. */
async function checkWorld(file: string) {
  const world = await worldOf(file);
  const labels = labelsOf(file);
  const given = publicText(world);
  const ai = createOfflineProvider(world);
  const hidden = aiInstructionTexts(world);
  const isDirective = (label: string, text: string) => {
    const labelled = labels[label];
    if (labelled !== undefined)
      assert.equal(
        directiveOf(text) !== null,
        labelled,
        `${basename(file)} ${label}: labelled ${labelled ? "for the narrator" : "story"}`,
      );
    return labelled ?? directiveOf(text) !== null;
  };
  let place: NarrationRequest["scene"] | null = null;
  for (const [name, start] of Object.entries(world.storyStarts ?? {})) {
    const session = await createSession(world, {
      storyStart: name,
      players: [{ name: "Kit" }],
      ai,
      scripts: sandbox,
      seed: 3,
      validate: false,
    });
    const screen = session.opening!.story;
    const text = start.storyStart ?? "";
    if (isDirective(`start:${name}`, text)) {
      const leak = leaked(text, screen, given);
      assert.deepEqual(leak, [], `${basename(file)} "${name}": narrator-only text on screen:\n${screen}`);
    } else {
      for (const line of text.split("\n")) {
        const plain = line
          .replace(/^\s*(?:#{1,6}\s+|[-*•+]\s+|>\s*)/, "")
          .replace(/\*\*/g, "")
          .trim();
        if (plain !== "")
          assert.ok(
            screen.includes(plain),
            `${basename(file)} "${name}": the opening lost ${JSON.stringify(plain)}:\n${screen}`,
          );
      }
    }
    for (const instruction of hidden)
      assert.deepEqual(
        leaked(instruction, screen, given),
        [],
        `${basename(file)} "${name}": aiInstructions on screen`,
      );
    const position = session.state.position;
    const location = world.locations[position.location];
    place ??= {
      position,
      locationInfo: location?.basicInfo ?? "",
      areaDescription: location?.areas?.[position.area]?.description ?? "",
      npcsPresent: [],
      party: [{ name: "Kit", level: 1, resources: {}, traits: [] }],
      recentStory: [],
    };
  }
  if (!place) return;
  for (const { key, text } of storyEffects(world)) {
    if (!isDirective(`trigger:${key}`, text)) continue;
    const request: NarrationRequest = {
      tick: 3,
      opening: false,
      actions: [{ player: "Kit", text: "look around" }],
      intent: { intent: "other" },
      instructions: [text],
      event: null,
      scene: place,
      outcomes: [],
      summary: "",
      summarise: null,
      journal: [],
      partyNextStep: null,
    };
    const { text: screen } = await ai.narrate(request);
    const leak = leaked(text, screen, given);
    assert.deepEqual(
      leak,
      [],
      `${basename(file)} story effect of ${key}: narrator-only text on screen:\n${screen}`,
    );
  }
}

describe("narrator-only text, checked against the source", () => {
  test("the fixture: directions never shown, a story opening shown whole and seen by its trigger", async () => {
    await checkWorld(DIRECTIVES);
    const world = await worldOf(DIRECTIVES);
    const ai = createOfflineProvider(world);
    const barge = await createSession(world, {
      storyStart: "Barge Contract",
      players: [{ name: "Kit" }],
      ai,
      scripts: sandbox,
      seed: 3,
      validate: false,
    });
    // Composed from the start's description, the place and the people there.
    assert.ok(
      barge.opening!.story.startsWith(
        "You have signed on with the barge Heron, and your first night is on the marsh.",
      ),
      barge.opening!.story,
    );
    assert.match(barge.opening!.story, /Porch, Fen Hut\./);
    assert.match(barge.opening!.story, /Ada Reed is here\./);
    const dawn = await createSession(world, {
      storyStart: "Mill Dawn",
      players: [{ name: "Kit" }],
      ai,
      scripts: sandbox,
      seed: 3,
      validate: false,
    });
    assert.ok(
      dawn.opening!.fired.includes("rope_bell"),
      `the opening's last line reaches the triggers: ${dawn.opening!.story}`,
    );
  });

  test("the example world", async () => {
    await checkWorld(EXAMPLE);
  });

  for (const name of ["platform-style", "placeless"])
    test(`the fixture ${name}`, async () => {
      await checkWorld(fixture(name));
    });

  const shared = sharedWorldFiles().filter((file) => !file.includes("/mods/"));
  for (const file of shared)
    test(`shared world ${basename(file)}`, async () => {
      await checkWorld(file);
    });
  if (shared.length === 0)
    test("the shared worlds", (t) => {
      t.skip("../shared/worlds is not beside the repository");
    });
});
