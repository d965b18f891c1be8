import type { QuestStatus } from "./quest-status.ts";

/**
 * What happened mechanically in a turn, as data for the narrators (issue 34): the engine never writes
 * English for a narrator to read back. `actor` names the character whose act it was (a party's leader
 * for a move, the follower for "followed"), or is null when the world or the whole party did it (a
 * trigger's effect, a quest changing status).
 */
export type Outcome =
  /** The party went somewhere on a player's word: a journey, a teleport, or a step to another area. */
  | {
      type: "moved";
      actor: string | null;
      how: "travelled" | "teleported" | "area";
      location: string;
      area: string;
    }
  /** A trigger put the party somewhere (`party-location`): nobody walked there. */
  | { type: "placed"; actor: null; location: string; area: string }
  /** A party member went along with the leader's move. */
  | { type: "followed"; actor: string; leader: string }
  /** A move was asked for and the world's rules did not carry it out, and why (MoveRefusal). */
  | ({ type: "refused"; actor: string | null; act: "move"; target: string } & MoveRefusal)
  | { type: "quest"; actor: null; quest: string; from: QuestStatus; status: QuestStatus }
  | { type: "objective"; actor: null; quest: string; text: string; change: "revealed" | "completed" }
  | { type: "event"; actor: null; key: string; change: "began" | "completed" }
  | { type: "resource"; actor: string; resource: string; from: number; to: number }
  | { type: "item"; actor: string; item: string; change: number };

/**
 * Why a move did not happen: no destination named, no such place, a place in no region, a place in a
 * realm the party does not know, already there (a location, or an area), no such area at `place`.
 */
export type MoveRefusal =
  | { why: "no-destination" | "unknown-place" | "no-region" | "already-at" | "already-in"; place: string }
  | { why: "unknown-realm"; place: string; realm: string }
  | { why: "no-area"; place: string; area: string };

export type OutcomeType = Outcome["type"];

/**
 * One line per outcome for a model's prompt and the trace, in the third person. Also the exact English
 * the engine wrote before outcomes were data (`legacyOutcomeText`), so tapes recorded then still replay.
 */
export function outcomeLine(o: Outcome): string {
  const who = o.actor ?? "The party";
  switch (o.type) {
    case "moved":
      if (o.how === "area") return `${who} moved to ${o.area}.`;
      return `${who} ${o.how} to ${o.location}.`;
    case "placed":
      return `The party is now at ${o.location}${o.area ? ` (${o.area})` : ""}.`;
    case "followed":
      return `${o.actor} followed ${o.leader}.`;
    case "refused":
      // The party moves as one: it is the party that stays, whoever asked (the prompt's rules say so).
      return `The party did not move: ${refusalReason(o)}.`;
    case "resource":
      return `${o.actor}'s ${o.resource} went from ${o.from} to ${o.to}.`;
    case "item":
      return o.change > 0
        ? `${o.actor} gained ${o.change} × ${o.item}.`
        : `${o.actor} lost ${-o.change} × ${o.item}.`;
    default:
      return legacyOutcomeText(o) ?? "";
  }
}

/**
 * The English line the engine wrote for an outcome before issue 34 (null for kinds it never wrote):
 * a tape recorded then holds these lines in its narration requests.
 */
export function legacyOutcomeText(o: Outcome): string | null {
  switch (o.type) {
    case "moved":
      return o.how === "area" ? `The party moved to ${o.area}.` : `The party ${o.how} to ${o.location}.`;
    case "placed":
      return `The party is now at ${o.location}${o.area ? ` (${o.area})` : ""}.`;
    case "refused":
      return `The party did not move: ${refusalReason(o)}.`;
    case "quest":
      return `Quest "${o.quest}" is now ${o.status}.`;
    case "objective":
      return `${o.change === "revealed" ? "New objective" : "Objective completed"} for "${o.quest}": ${o.text}`;
    case "event":
      return `Narrative event "${o.key}" ${o.change}.`;
    default:
      return null;
  }
}

/** The trace's reason for a refused move (also what a model is told, through outcomeLine). */
export function refusalReason(r: MoveRefusal): string {
  switch (r.why) {
    case "no-destination":
      return "no destination named";
    case "unknown-place":
      return `no location named "${r.place}"`;
    case "no-region":
      return `"${r.place}" lies in no region of the world`;
    case "unknown-realm":
      return `"${r.place}" lies in the realm "${r.realm}", which the party does not know`;
    case "already-at":
      return `the party is already at "${r.place}"`;
    case "already-in":
      return `the party is already in "${r.place}"`;
    case "no-area":
      return `"${r.place}" has no area named "${r.area}"`;
  }
}
