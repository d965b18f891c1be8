import type { Paint } from "../../author/paint.ts";
import type { SessionState } from "../../engine/index.ts";
import { knownIn, nextStepOf, restatesStep } from "../../engine/index.ts";
import type { World } from "../../world/schema/index.ts";
import { describePlace } from "./views.ts";

/**
 * What changed for the player in one step, as short lines under the story:
 * quests and objectives, narrative events, the party's place, resources,
 * traits and items, people met, and the next step when it changed. Compared state to state, so it
 * shows the same thing whatever caused the change (a trigger, an answer); an objective the turn's
 * story (when given) states word for word is not listed again.
 */
export function changesView(
  before: SessionState,
  after: SessionState,
  world: World,
  paint: Paint,
  story = "",
): string[] {
  const lines: string[] = [];
  const told = story.toLowerCase();
  const known = knownIn(world);
  for (const [key, quest] of Object.entries(after.quests)) {
    const was = before.quests[key];
    if ((was?.status ?? "hidden") !== quest.status && quest.status !== "hidden")
      lines.push(paint("yellow", `Quest "${key}": ${quest.status}.`));
    // Progress on a quest that was let go (expired, rejected, abandoned) is kept silently, not shown as if it were active.
    if (quest.status === "expired" || quest.status === "rejected" || quest.status === "abandoned") continue;
    for (const [id, status] of Object.entries(quest.objectives)) {
      const previous = was?.objectives[id] ?? "hidden";
      if (previous === status || status === "hidden") continue;
      const text = world.quests[key]?.objectives?.[id]?.text ?? id;
      // The story just shown already says it, in the objective's own words (the offline narrator
      // tells the journal's changes): a second line under it would only repeat it.
      if (told.includes(text.replace(/[.!]+$/, "").toLowerCase())) continue;
      lines.push(status === "completed" ? paint("green", `  Done: ${text}`) : `  New objective: ${text}`);
    }
  }
  for (const [key, event] of Object.entries(after.events)) {
    const was = before.events[key]?.status ?? "inactive";
    if (was === event.status) continue;
    const title = world.narrativeEvents?.[key]?.title ?? key;
    const verb = { active: "begins", completed: "is over", stopped: "fades", inactive: "rests" }[
      event.status
    ];
    lines.push(paint("magenta", `${title} ${verb}.`));
  }
  const p = after.position;
  if (p.location !== before.position.location || p.area !== before.position.area)
    lines.push(paint("gray", `You are at ${describePlace(p, world)}.`));
  for (const character of after.party) {
    const was = before.party.find((c) => c.name === character.name);
    if (!was) {
      lines.push(`${character.name} joins the party.`);
      continue;
    }
    for (const [resource, value] of Object.entries(character.resources)) {
      const old = was.resources[resource];
      if (old && old.current !== value.current) {
        const delta = value.current - old.current;
        const text = `${character.name}: ${resource} ${delta > 0 ? "+" : ""}${delta} (${value.current}/${value.max})`;
        lines.push(delta > 0 ? paint("green", text) : paint("red", text));
      }
    }
    for (const trait of character.traits.filter((t) => !was.traits.includes(t)))
      lines.push(`${character.name} is now ${trait}.`);
    for (const trait of was.traits.filter((t) => !character.traits.includes(t)))
      lines.push(`${character.name} is no longer ${trait}.`);
    for (const item of new Set([...Object.keys(character.items), ...Object.keys(was.items)])) {
      const delta = (character.items[item] ?? 0) - (was.items[item] ?? 0);
      if (delta !== 0)
        lines.push(
          `${character.name} ${delta > 0 ? "gains" : "loses"} ${item}${Math.abs(delta) > 1 ? ` x${Math.abs(delta)}` : ""}.`,
        );
    }
  }
  for (const name of Object.keys(world.npcs)) {
    if (known(after, name) && !known(before, name)) lines.push(`You now know ${name}.`);
  }
  // The next step as it stands after every change of the step (the story never says it: the state
  // phase runs after the narration), shown when it changed (issue 14 item 5) and says more than
  // the start of the step shown before it.
  const next = nextStepOf(after, world);
  const shown = nextStepOf(before, world);
  if (next !== null && next !== shown && !restatesStep(next, shown))
    lines.push(paint("cyan", `Next: ${next}`));
  return lines;
}
