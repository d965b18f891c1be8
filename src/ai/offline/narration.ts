import { outcomeLine } from "../../engine/outcome.ts";
import type { EventVerdict, Intent, Outcome } from "../../engine/ports.ts";
import { directiveOf } from "../../world/directive.ts";
import { actsAroundMove } from "./acts.ts";
import { npcAnswer } from "./answer.ts";
import {
  absentObjectLine,
  absentPersonLine,
  addressedThing,
  attemptLine,
  journeyToNothing,
  journeyToNowhere,
  reactionLine,
  stateClaimLine,
  unreadableLine,
} from "./attempt.ts";
import { beatOfTurn, eventVerdict, parseBeats } from "./event.ts";
import { nameStart, type WorldFacts } from "./facts.ts";
import { asksWhatToDo, hintLine } from "./hint.ts";
import { renderInstruction, renderOpening } from "./instructions.ts";
import { movementVerbAt, unknownDestination, verticalDirection } from "./intent.ts";
import type { NameIndex } from "./names.ts";
import { addEvidence, evidenceOf, isNarratorOnly, pruneBranches } from "./narrator-only.ts";
import { toSecondPerson } from "./person.ts";
import { placesWithWord, verticalMove } from "./place-words.ts";
import { type ProperNames, withProperNames } from "./proper.ts";
import { againLine, coreOf, repeatsRecent, retells, stayingSentence, toldRecently } from "./repeat.ts";
import type { NarrationInput } from "./request.ts";
import { fitToScene } from "./scene-fit.ts";
import { doneStates, isStale, withoutStaleClauses } from "./stale.ts";
import {
  closing,
  echo,
  journal,
  moved,
  noWayThere,
  npc,
  placeName,
  refusal,
  unknownPlace,
  waysOn,
} from "./templates.ts";
import { clip, endSentence, firstSentences, sentences, stemmedWords, tokenize } from "./text.ts";
import { MOVE_VERBS } from "./vocabulary.ts";
import { type Voice, voiceOf } from "./voice.ts";
import { asksTheWays, looksAround, whereAnswer, whoAnswer } from "./where.ts";

/**
 * The offline narration of a turn, composed from the request in this order
 * (each part a paragraph, empty parts left out):
 *
 *  1. what the player did: a movement in prose ("You walk to the Gutted
 *     Eel."), the refusal when the party did not move ("You stay where you
 *     are: ..."), or the action echoed in the second person; the opening
 *     tells the story start's text instead;
 *  2. the place: on arrival, the first sentence of the location's info and of
 *     the area's description (an area move: the area's first two); when the
 *     party stays, one sentence of either, chosen by a stable hash of the
 *     tick and the place, so the text varies from turn to turn;
 *  3. the NPCs present: on arrival (and in the opening) each with the first
 *     sentence of their public info; otherwise a short "X is here", in full
 *     for an NPC the action names;
 *  4. each pending one-time instruction, turned into prose (instructions.ts);
 *  5. the active event's beat for this turn (or that the party left it);
 *  6. journal changes from the outcomes (objectives, quest statuses, events);
 *  7. a closing prompt ("What do you do?"); never the next step, which the
 *     state phase may change after the narration (the turn result's `next`).
 */

export interface NarrationContext {
  facts: WorldFacts;
  /** The world's locations, for instructions that depend on where the party is. */
  locations: NameIndex;
  /** The offline classifier on any text, with the given NPCs present. */
  classify: (text: string, npcs: string[]) => Intent;
}

export interface Composed {
  text: string;
  /**
   * In a party, the text's paragraphs in order, each with the character it tells of (null for the
   * place, the people there, the journal): a page marks the viewer's own. Absent in a solo game.
   */
  segments?: Segment[];
  eventVerdict?: EventVerdict;
  /** What of the pending instructions was not told, and why (for the trace, as a narration notice). */
  notice?: string;
}

export interface Segment {
  actor: string | null;
  text: string;
}

/** At most this many characters of any one paragraph (a hostile request cannot make a huge story). */
const PARAGRAPH_LIMIT = 4000;
const NPC_LINES = 4;

export function compose(input: NarrationInput, ctx: NarrationContext): Composed {
  const scene = input.scene;
  const where = scene.position;
  // A retried turn (a new draw) picks its sentences by another key: another wording where there is one.
  const baseKey = `${input.tick}|${where.location}|${where.area}`;
  const key = input.draw > 0 ? `${baseKey}|${input.draw}` : baseKey;
  const outcomes = input.outcomes;
  // What the party was told happened, as words for the evidence and stale checks (never read back as data).
  const outcomeText = outcomes.map(outcomeLine);
  const npcNames = scene.npcsPresent.map((n) => n.name);
  const parts: string[] = [];
  const voice = voiceOf(input);
  // The actor of each part told of one character (an action line), by the part's index.
  const actors = new Map<number, string>();

  // Instructions and the event's beat first: whether anything happened this turn decides how the action is told.
  const classify = (text: string) => ctx.classify(text, npcNames);
  const actionText = input.actions.map((a) => a.text).join("\n");
  const told: string[] = [];
  const movedNow = outcomes.some((o) => o.type === "moved" || o.type === "placed");
  // What the party was told (never what a player only tried): picks the branch of an "either ... or ...".
  const known = evidenceOf([...scene.recentStory.slice(-3), input.summary, ...outcomeText]);
  const notices: string[] = [];
  // Whom each told instruction is for (a `scope: "player"` trigger's), by its index in `told`.
  const toldFor: (readonly string[])[] = [];
  for (const attributed of input.instructions) {
    const { targets, instruction } = addressees(attributed);
    const guarded: string[] = [];
    const rendered = renderInstruction(instruction, {
      dropped: guarded,
      actionText,
      intent: input.intent?.intent ?? null,
      location: where.location,
      area: where.area,
      places: ctx.locations,
      classify,
      known,
    });
    // Deferred (spec 2.2): never told as happening where it cannot (scene-fit.ts); what is left out goes to the trace.
    const fitted = fitToScene(rendered, {
      npcNames: ctx.facts.npcNames,
      here: [...npcNames, ...scene.party.map((c) => c.name)],
      locationAreas: ctx.facts.locationAreas,
      location: where.location,
      area: where.area,
      moved: movedNow,
    });
    const dropped = [...guarded, ...fitted.dropped];
    if (dropped.length > 0) notices.push(`"${clip(instruction, 80)}": ${[...new Set(dropped)].join("; ")}`);
    const prose = fitted.text;
    addEvidence(known, prose);
    // Never the same instruction twice: not within a turn, nor again after it was told in a recent turn.
    if (prose && !told.includes(prose) && !scene.recentStory.some((story) => story.includes(prose))) {
      told.push(prose);
      toldFor.push(targets);
    }
  }
  // What a completed objective implies ("light the lamp" done: the lamp is lit), for the stale checks.
  const doneNow = outcomes
    .map((o) => (o.type === "objective" && o.change === "completed" ? doneStates(o.text) : ""))
    .filter((t) => t !== "");
  // An instruction written for the world before a change ("with the lamp still dark" beside "a beam
  // sweeps out", or told after the story said the lamp burns) loses the sentences, or the clauses
  // after a sentence's first, that the other instructions, the outcomes or the story since contradict.
  const storySince = [...scene.recentStory, input.summary, ...doneNow];
  for (let i = 0; i < told.length; i++) {
    const others = [...told.filter((_, j) => j !== i), ...outcomeText, ...storySince].join("\n");
    const all = sentences(told[i]!);
    const kept = all.map((s) => withoutStaleClauses(s, others)).filter((s) => s !== "");
    if (kept.length === all.length && kept.every((s, j) => s === all[j])) continue;
    notices.push(`"${clip(told[i]!, 80)}": contradicted by this turn's changes or the story since`);
    told[i] = kept.join(" ");
  }
  for (let i = told.length - 1; i >= 0; i--)
    if (told[i] === "") {
      told.splice(i, 1);
      toldFor.splice(i, 1);
    }
  let verdict: EventVerdict | undefined;
  let beat = "";
  if (input.event) {
    const beats = parseBeats(input.event.beats);
    // A beat's conditional or narrator-only sentences ("wreckage or none depending on ...") are not
    // told, nor what this turn's instructions or a recent story already told (repeat.ts).
    const already = [...told, ...scene.recentStory.slice(-5)];
    const current = beatOfTurn(beats, input.event.activeTurns);
    // What the event's other beats name does not decide between a beat's branches (chooseBranch).
    const background = stemmedWords([input.event.title, ...beats.filter((b) => b !== current)].join("\n"));
    const said = sentences(toSecondPerson(current)).map(
      (s) => [s, pruneBranches(s, known, background)] as const,
    );
    // The final beat's "either ... or ..." that nothing stated: the event's outcome is not settled yet.
    const unsettled = current === beats.at(-1) && said.some(([s, p]) => p === "" && /\beither\b/i.test(s));
    verdict = eventVerdict(input, beats, told.join("\n"), unsettled);
    beat =
      verdict === "stopped"
        ? journal.eventStopped(input.event.title)
        : said
            .map(([, p]) => p)
            .filter((s) => s !== "" && !isNarratorOnly(s) && !retells(s, already))
            .join(" ");
  }
  // A trigger that fired on the action counts: its story is deferred to the next narration (spec),
  // and this one must not say "nothing comes of it" just before it ("ring the fog bell").
  const happened = outcomes.length > 0 || told.length > 0 || beat !== "" || input.actionsAnswered;

  // The parts before this index tell what the players did (always kept, even when told before).
  let actionParts = 1;
  if (input.opening) {
    // The story start whole, or, when it is written for the narrator (directive.ts), never a word of it:
    // the start's player-facing description opens, then the place and the people there (issue 35).
    const opening = renderOpening(scene.openingText.trim()) || startDescription(ctx.facts, scene.openingText);
    if (opening) parts.push(opening);
    parts.push(sceneLine(input));
  } else {
    const segments = actionLines(input, outcomes, ctx, happened, key, [...told, beat].join(" "), voice);
    if (!voice.party) parts.push(segments.map((s) => s.text).join(" "));
    // In a party each character's line is a paragraph of its own, so a page can mark the viewer's.
    else
      for (const segment of segments) {
        if (segment.actor !== null) actors.set(parts.length, segment.actor);
        parts.push(segment.text);
      }
    actionParts = parts.length;
    // What the story since says, this turn's own changes included (its instructions, beat and
    // outcomes): a lamp lit this turn is not described as cold in the same narration.
    const since = [...scene.recentStory, input.summary, ...told, beat, ...outcomeText, ...doneNow];
    parts.push(placeLines(input, outcomes, ctx.facts, key, since.join("\n")));
  }
  const arrived = input.opening || outcomes.some((o) => o.type === "moved" || o.type === "placed");
  // Arriving, or looking around, the place is described even when a recent turn described it the
  // same way: coming back to the Lamp Room is not only "You go to the Lamp Room." (parts[1]).
  const place = (arrived || lookingAround(input)) && !input.opening ? actionParts : -1;
  parts.push(npcLines(input, arrived));
  // Their portraits told in a recent turn: who is here is still said (coming back to Mara's tavern
  // said nothing of her when the whole paragraph was left out as a repeat).
  if (repeatsRecent(parts.at(-1)!, scene.recentStory))
    parts[parts.length - 1] = npcPresent(npcNames.slice(0, 12));
  // Talked to, with nothing of the world answering this turn: what anyone may know of them (answer.ts).
  if (!happened) parts.push(npcAnswer(input, ctx.facts));
  // An instruction for some players: told of them by name in a party (alone, the player is "you").
  told.forEach((prose, i) => {
    const targets = toldFor[i]!;
    if (voice.party && targets.length === 1) actors.set(parts.length, targets[0]!);
    parts.push(
      !voice.party || targets.length === 0
        ? prose
        : targets.length === 1
          ? voice.of(targets[0], prose)
          : `For ${targets.slice(0, -1).join(", ")} and ${targets.at(-1)}: ${prose}`,
    );
  });
  parts.push(beat);

  const changes = journalLines(outcomes, input.journal, voice);
  parts.push(changes.join(" "));
  // Never "Next: ...": the state phase runs after the narration (spec 2.2) and may complete the
  // step it would name; the turn result carries the next step computed after the turn (issue 14 item 5).
  parts.push(closing.prompt(baseKey, input.draw, voice.party));

  // In a party every line told of no one character speaks of the party, never to one "you" (voice.ts).
  const kept = parts
    .map((p, i) => ({
      actor: actors.get(i) ?? null,
      text: clip(actors.has(i) || i === parts.length - 1 ? p : voice.all(p), PARAGRAPH_LIMIT),
      i,
    }))
    .filter(
      ({ text: p, i }) =>
        p !== "" &&
        (i < actionParts || i === place || i === parts.length - 1 || !repeatsRecent(p, scene.recentStory)),
    );
  const text = kept.map((p) => p.text).join("\n\n");
  const composed: Composed = verdict === undefined ? { text } : { text, eventVerdict: verdict };
  if (voice.party) composed.segments = kept.map(({ actor, text: t }) => ({ actor, text: t }));
  if (notices.length > 0)
    composed.notice = clip(
      `Offline narrator left out of a deferred instruction: ${notices.join(" | ")}`,
      900,
    );
  return composed;
}

/** The description of the story start whose text this is, unless it too is written for the narrator. */
function startDescription(facts: WorldFacts, openingText: string): string {
  const description = facts.startDescriptions.get(openingText.trim()) ?? "";
  return description === "" || directiveOf(description) ? "" : description;
}

function sceneLine(input: NarrationInput): string {
  const { location, area } = input.scene.position;
  const label = [area, location].filter((s) => s !== "").join(", ");
  const description = firstSentences(input.scene.areaDescription || input.scene.locationInfo, 1);
  return [label ? endSentence(label) : "", description].filter((s) => s !== "").join(" ");
}

const MOVING: ReadonlySet<string> = new Set(["travel", "move", "teleport", "fastTravel"]);

function actionLines(
  input: NarrationInput,
  outcomes: Outcome[],
  ctx: NarrationContext,
  happened: boolean,
  key: string,
  toldText: string,
  voice: Voice,
): Segment[] {
  const segments: Segment[] = [];
  // Each line of an actor's is told of them: "you" alone, their name in a party (voice.ts).
  let actor: string | null = null;
  const lines = { push: (text: string) => segments.push({ actor, text: voice.of(actor, text) }) };
  // An act is told as done only when the world's rules answered it: a trigger fired on the actions.
  // Anything else this turn (a quest moving, the fog, a deferred story) did not carry it out (issue 34);
  // it only means the act is not said to come to nothing (what was told may be its result).
  const answered = input.actionsAnswered;
  const isName = nameStarts(input, ctx.facts);
  const refused = outcomes.find((o) => o.type === "refused");
  const movement = outcomes.find((o) => o.type === "moved");
  const byIntent = input.intent !== null && MOVING.has(input.intent.intent);
  // The action that decided the party's intent (the leader's, with several players; else the first).
  const lead = Math.max(
    0,
    input.actions.findIndex((a) => input.intent?.leader !== undefined && a.player === input.intent.leader),
  );
  // Who went along with the leader's move (the engine's "followed" outcomes).
  const followers = outcomes.flatMap((o) => (o.type === "followed" ? [o.actor] : []));
  const changed = outcomes.length > 0 || input.actionsAnswered;
  input.actions.slice(0, 6).forEach((action, i) => {
    actor = action.player || null;
    if (i === lead && refused?.type === "refused" && byIntent) {
      lines.push(refusal(refused, ctx.facts));
      return;
    }
    if (i === lead && movement && byIntent) {
      const line = movementLine(movement, action.text, ctx.facts.proper);
      lines.push(withOtherActs(withFollowers(line, followers), action.text, input, ctx, key, isName));
      return;
    }
    // "follow Isobel closely": the leader's line says who follows; an echo would say it twice.
    if (movement && byIntent && followers.includes(action.player) && FOLLOW_ONLY.test(action.text.trim()))
      return;
    const nowhere =
      i === lead && input.intent?.intent === "other"
        ? notAPerson(
            unknownDestination(action.text, (words) => regionNamed(ctx.facts, words) !== undefined),
            [...ctx.facts.npcNames, ...input.scene.party.map((c) => c.name)],
          )
        : null;
    if (nowhere) {
      // "walk to the Gull Coast": a region is a place the world knows, only not a destination
      // (the classifier's answer for it is too unsure to move): say so, with its places.
      const region = regionNamed(ctx.facts, nowhere);
      lines.push(
        region !== undefined
          ? refusal({ why: "unknown-place", place: region }, ctx.facts)
          : unknownPlace(clip(nowhere, 60)),
      );
      return;
    }
    // "go up" where no single way leads up (the top of the tower): say so, and where one can go.
    const direction = i === lead && input.intent?.intent === "other" ? verticalDirection(action.text) : null;
    if (direction) {
      const { location, area } = input.scene.position;
      const { options } = verticalMove(location, area, direction, ctx.facts.places);
      lines.push(noWayThere(direction, area || location, options, ctx.facts.proper));
      return;
    }
    // "where can I go?", "exits": a look around, the place then says its ways on (where.ts).
    if (asksTheWays(action.text)) {
      lines.push("You look around.");
      return;
    }
    // "what should I do?": the journal's next step, not the words echoed as speech (hint.ts).
    if (asksWhatToDo(action.text)) {
      const hint = hintLine(input);
      lines.push(hint);
      return;
    }
    // A journey nobody made ("walk north", "walk to the village" where there is none) is told as staying put.
    // So is one toward a thing that is no place and not here ("fly to the moon", "swim to the ship").
    const stayed =
      !movement && !(byIntent && refused)
        ? (journeyToNowhere(action.text, (noun) => placesNamedBy(noun, ctx.facts)) ??
          (input.intent?.intent === "other" || input.intent === null
            ? journeyToNothing(action.text, `${sceneText(input)} ${toldText}`)
            : null))
        : null;
    // The player's words keep the world's capitals for its names ("ask mara" -> "You ask Mara"), quoted or not.
    let said = stayed ?? withProperNames(echo(clip(action.text, 300), isName), ctx.facts.proper);
    // "who is here?": a look around, never words said to the air (where.ts).
    const who = stayed
      ? null
      : whoAnswer(action.text, input.scene.npcsPresent.length, input.scene.party.length);
    if (who) {
      lines.push(who);
      return;
    }
    // A thing the scene does not show cannot be read or taken (issue 14: the Lamp Room's logbook read on the stairwell).
    const missing =
      stayed || changed ? null : absentObjectLine(action.text, `${sceneText(input)} ${toldText}`);
    // Nor can someone who is elsewhere be talked to (the pier's "talk to Mara").
    const away =
      missing ??
      (stayed
        ? null
        : absentPersonLine(
            action.text,
            input.scene.npcsPresent.map((n) => n.name),
            ctx.facts.npcNames,
          ));
    if (away) {
      lines.push(away);
      return;
    }
    // Nor is a thing or an animal a hearer ("ask the gull about the lighthouse"), unless a trigger answered it.
    const thing =
      stayed || input.actionsAnswered
        ? null
        : addressedThing(action.text, [...ctx.facts.npcNames, ...input.scene.party.map((c) => c.name)]);
    if (thing) {
      const unanswered = noAnswerLine(said, thing);
      lines.push(unanswered);
      return;
    }
    // In a party, a journey one player asked for while the party stayed (another held it) was not made.
    if (
      !stayed &&
      !movement &&
      voice.party &&
      /^You [a-z]/.test(said) &&
      opensWithMovement(action.text) &&
      MOVING.has(
        ctx.classify(
          action.text,
          input.scene.npcsPresent.map((n) => n.name),
        ),
      )
    ) {
      lines.push(
        `You mean to ${said.slice(4).replace(/[.!]+$/, "")}, but the party stays together where it is.`,
      );
      return;
    }
    // A blow at someone here that no rule answered: a try, and how they meet it (issue 34).
    const reaction =
      stayed || answered
        ? null
        : reactionLine(
            action.text,
            said,
            input.scene.npcsPresent.map((n) => n.name),
            `${key}|${i}`,
          );
    if (reaction) {
      lines.push(reaction);
      return;
    }
    // An echo never claims an item, resource or wound the state did not record (issue 19 item 3).
    const claim = stayed
      ? null
      : stateClaimLine(action.text, said, {
          key: `${key}|${i}`,
          happened,
          changed: answered,
        });
    if (claim) said = claim;
    else if (!stayed && !answered)
      said =
        attemptLine(action.text, said, {
          key: `${key}|${i}`,
          npcsPresent: input.scene.npcsPresent.length,
          quiet: happened,
        }) ?? said;
    else if (!stayed) said = unreadableLine(action.text, said) ?? said;
    // The same act again (a recent story told it): a shorter, varied line (repeat.ts).
    const core = stayed ? "" : coreOf(said);
    // A try stays a try ("Still you try to take the lamp key.", never "Still you take the lamp key.").
    // Looking around is not "again": the place it shows may be another one, and it is shown whole.
    if (core !== "" && !looksAround(action.text) && toldRecently(core, input.scene.recentStory))
      said = againLine(
        /^You try to /.test(said) ? `try to ${core}` : core,
        !/nothing|no difference|no effect/.test(said),
        input.tick,
      );
    // "where am I", "where is the Gutted Eel?": the map's answer after the words (where.ts).
    const where = said.startsWith("You say:")
      ? whereAnswer(action.text, input.scene.position, ctx.facts, ctx.locations)
      : null;
    // "where am I" is answered, not echoed as speech; a way asked for follows the words.
    if (where) said = where.here ? where.text : `${said} ${where.text}`;
    lines.push(said);
  });
  actor = null;
  if (input.actions.length === 0 && refused?.type === "refused") lines.push(refusal(refused, ctx.facts));
  for (const o of outcomes) {
    if (o.type === "placed") lines.push(moved.placed(o.location, ctx.facts.proper));
    if (o.type === "moved" && !(byIntent && o === movement)) {
      lines.push(
        o.how === "area"
          ? moved.area(o.area, ctx.facts.proper)
          : moved.travelled(o.location, ctx.facts.proper),
      );
    }
  }
  return segments;
}

/** "You walk to the Gutted Eel; Ada follows." (the leader's line, with who went along). */
function withFollowers(line: string, followers: readonly string[]): string {
  if (followers.length === 0) return line;
  const who = `${followers.slice(0, -1).join(", ")}${followers.length > 1 ? " and " : ""}${followers.at(-1)}`;
  return `${line.replace(/[.!]$/, "")}; ${who} ${followers.length === 1 ? "follows" : "follow"}.`;
}

/**
 * The movement line with the other acts of the same line around it (acts.ts): "You try to light
 * the lamp, but nothing comes of it. Then you go to the Stairwell." An act before the move is told
 * honestly, as any echo: it counts as answered only when a trigger fired on the action (the move
 * itself is no answer to "light the lamp"). An act after the move is said to come next: the world
 * judged the line where the party stood, before it moved.
 */
function withOtherActs(
  line: string,
  action: string,
  input: NarrationInput,
  ctx: NarrationContext,
  key: string,
  isName: (word: string) => boolean,
): string {
  const acts = actsAroundMove(action, input.intent?.target ?? undefined);
  if (acts === null) return line;
  const answered = input.actionsAnswered === true;
  const before = acts.before.slice(0, 3).map((act, j) => {
    const echoed = withProperNames(echo(clip(act, 300), isName), ctx.facts.proper);
    const ctxKey = `${key}|act${j}`;
    const claim = stateClaimLine(act, echoed, { key: ctxKey, happened: answered, changed: answered });
    if (claim) return claim;
    if (!answered) return attemptLine(act, echoed, { key: ctxKey, npcsPresent: 0 }) ?? echoed;
    return unreadableLine(act, echoed) ?? echoed;
  });
  const after = acts.after
    .slice(0, 3)
    .map((act) => withProperNames(echo(clip(act, 300), isName), ctx.facts.proper))
    .filter((echoed) => /^You [a-z]/.test(echoed) && !echoed.startsWith("You say:"))
    .map((echoed) => `Next, you mean to ${echoed.slice(4).replace(/[.!]+$/, "")}.`);
  const moving = before.length > 0 ? `Then ${line.replace(/^You /, "you ")}` : line;
  return [...before, moving, ...after].join(" ");
}

/** "You ask the gull about the lighthouse, but the gull does not answer." */
function noAnswerLine(said: string, thing: string): string {
  const verb = /[^s]s$/.test(thing) ? "do not answer" : "does not answer";
  if (said.startsWith("You say:")) return `${said} ${thing.replace(/^the /, "The ")} ${verb}.`;
  return `${said.replace(/[.!?]+$/, "")}, but ${thing} ${verb}.`;
}

/** "run to Mara": a name of someone of the world is no unknown place (null), whatever else it is. */
function notAPerson(name: string | null, people: readonly string[]): string | null {
  if (name === null) return null;
  const words = name
    .toLowerCase()
    .replace(/^the\s+/, "")
    .split(/\s+/);
  const named = people.some((p) => {
    const theirs = p.toLowerCase().split(/\s+/);
    return words.every((w) => theirs.includes(w.replace(/'s?$/, "")));
  });
  return named ? null : name;
}

/** An action that only asks to go along with the leader ("follow Isobel closely", "I go with them"), nothing else. */
const FOLLOW_ONLY =
  /^(?:(?:i|we)\s+)?(?:(?:will|'ll|shall)\s+)?(?:follow|follows|go with|goes with|come with|comes with|come along|tag along|go along|stay with|stick with|keep up|keep close|stay close)\b(?![\s\S]*\b(?:and|then|but|while)\b)[^.;!?]*[.!]?$/i;

/** What the scene shows: the place, who is here, the last story (what the party was just told of). */
function sceneText(input: NarrationInput): string {
  const s = input.scene;
  return [
    s.locationInfo,
    s.areaDescription,
    s.position.area,
    s.position.location,
    ...s.npcsPresent.map((n) => `${n.name} ${n.info}`),
    ...s.party.map((c) => c.name),
    s.recentStory.at(-1) ?? "",
  ].join(" ");
}

/** "You walk to the Gutted Eel.": the player's own movement verb when there is one. */
function movementLine(o: Extract<Outcome, { type: "moved" }>, action: string, proper: ProperNames): string {
  if (o.how === "teleported") return moved.teleported(o.location, proper);
  const place = o.how === "area" ? o.area : o.location;
  const tokens = tokenize(action);
  let verb: string | null = null;
  for (let i = 0; i < tokens.length && verb === null; i++) verb = movementVerbAt(tokens, i);
  const name = placeName(place, proper);
  switch (verb) {
    case null:
    case "exit":
    case "leave":
      return o.how === "area" ? moved.area(place, proper) : moved.travelled(place, proper);
    case "enter":
    case "visit":
    case "approach":
      return `You ${verb} ${name}.`;
    default:
      return `You ${MOVE_VERBS.get(verb) ?? verb} to ${name}.`;
  }
}

function placeLines(
  input: NarrationInput,
  outcomes: Outcome[],
  facts: WorldFacts,
  key: string,
  known: string,
): string {
  // A sentence the story since contradicts ("the dark lighthouse" after it was lit) is left out (stale.ts).
  const fresh = (text: string) =>
    sentences(text)
      .filter((s) => !isStale(s, known))
      .join(" ");
  const locationInfo = fresh(input.scene.locationInfo);
  const areaDescription = fresh(input.scene.areaDescription);
  const travelled = outcomes.some((o) => (o.type === "moved" && o.how !== "area") || o.type === "placed");
  const movedWithin = outcomes.some((o) => o.type === "moved" && o.how === "area");
  if (travelled)
    return [firstSentences(locationInfo, 1), firstSentences(areaDescription, 1)].filter((s) => s).join(" ");
  if (movedWithin) return firstSentences(areaDescription || locationInfo, facts.terse ? 1 : 2);
  if (lookingAround(input)) {
    const { location, area } = input.scene.position;
    const paths = facts.places.areas.get(`${location}\u0000${area}`)?.paths ?? [];
    return [firstSentences(areaDescription || locationInfo, 2), waysOn(paths, facts.proper)]
      .filter((s) => s !== "")
      .join(" ");
  }
  const pool = [...standalone(sentences(areaDescription)), ...standalone(sentences(locationInfo))].slice(
    0,
    40,
  );
  // None told again before the others were: the slots in an order seeded by the game's session (repeat.ts).
  const place = key.slice(key.indexOf("|") + 1);
  return stayingSentence(pool, input.tick, input.scene.recentStory, `${input.session}|${place}`);
}

/** A player looks around ("look around", "look"): the place is described, with its ways on. */
function lookingAround(input: NarrationInput): boolean {
  return input.actions.some((a) => looksAround(a.text));
}

/** Words that open a sentence by pointing back at the one before it. */
const LEANS_BACK = /^(?:it|its|they|their|them|he|his|she|her|this|these|those)\b/i;

/**
 * A text's sentences as pieces that can be told alone: a sentence that leans on the one before it
 * ("Its lamp has been dark since the autumn gales.") stays with it, and one with nothing before it
 * is left out.
 */
function standalone(sentences_: readonly string[]): string[] {
  const pieces: string[] = [];
  for (const sentence of sentences_) {
    if (!LEANS_BACK.test(sentence)) pieces.push(sentence);
    else if (pieces.length > 0) pieces[pieces.length - 1] += ` ${sentence}`;
  }
  return pieces;
}

function npcLines(input: NarrationInput, arrived: boolean): string {
  const present = input.scene.npcsPresent;
  if (present.length === 0) return "";
  const actionText = input.actions.map((a) => a.text.toLowerCase()).join(" ");
  const named = (name: string) =>
    name
      .toLowerCase()
      .split(/\s+/)
      .some((w) => w.length >= 3 && w !== "the" && new RegExp(`\\b${escapeRegExp(w)}\\b`).test(actionText));
  // Named again while the recent story already names them: the short line (an NPC's portrait is told once).
  const recent = input.scene.recentStory.join("\n");
  const full = present
    .filter((n) => arrived || (named(n.name) && !recent.includes(n.name)))
    .slice(0, NPC_LINES);
  // Someone the player addresses by name, whose portrait is already told, is the act's own subject
  // ("You talk to Mara Venn."): saying they are here as well only repeats it.
  const rest = present.filter((n) => !full.includes(n) && (arrived || !named(n.name))).map((n) => n.name);
  const lines = full.map((n) => npc.here(n.name, firstSentences(n.info, 1)));
  if (rest.length > 0)
    lines.push(full.length > 0 ? npc.alsoHere(rest.slice(0, 12)) : npcPresent(rest.slice(0, 12)));
  return lines.join(" ");
}

/** The places and regions whose name uses a word ("the lake": Lake Wildering), for a journey that found none. */
function placesNamedBy(noun: string, facts: WorldFacts): string[] {
  const names = placesWithWord(noun, facts.places).map((p) => p.name);
  const word = new RegExp(`\\b${escapeRegExp(noun)}\\b`, "i");
  for (const region of facts.regionLocations.keys())
    if (word.test(region) && !names.includes(region)) names.push(region);
  return names;
}

/** The world's region the words name, in any case ("the gull coast" -> "Gull Coast"). */
function regionNamed(facts: WorldFacts, words: string): string | undefined {
  const bare = words.replace(/^the\s+/i, "").toLowerCase();
  for (const region of facts.regionLocations.keys()) if (region.toLowerCase() === bare) return region;
  return undefined;
}

function npcPresent(names: string[]): string {
  return names.length === 1
    ? `${names[0]} is here.`
    : `${names.slice(0, -1).join(", ")} and ${names.at(-1)} are here.`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Progress on a quest the player let go (expired, rejected, abandoned: not in
 * the journal) is kept by the engine silently: it is not told as if the quest
 * were active, unless the quest is completed this very turn.
 */
function journalLines(outcomes: Outcome[], journal_: NarrationInput["journal"], voice: Voice): string[] {
  const lines: string[] = [];
  const open = new Set(journal_.map((j) => j.quest));
  for (const o of outcomes) if (o.type === "quest" && o.status === "completed") open.add(o.quest);
  for (const o of outcomes) {
    if (o.type === "objective") {
      if (open.has(o.quest))
        lines.push(
          o.change === "completed"
            ? journal.objectiveDone(o.quest, o.text)
            : journal.objectiveNew(o.quest, o.text),
        );
    } else if (o.type === "quest") lines.push(journal.quest(o.quest, o.status));
    else if (o.type === "event")
      lines.push(o.change === "began" ? journal.eventBegan(o.key) : journal.eventCompleted(o.key));
    else if (o.type === "resource" || o.type === "item") lines.push(sheetLine(o, voice));
  }
  return lines;
}

/**
 * Does a word start a known name (an NPC, a location, a party member)? Used
 * to keep its capital when echoing. The world's names are read once
 * (facts.nameStarts); only the scene's are added here.
 */
function nameStarts(input: NarrationInput, facts: WorldFacts): (word: string) => boolean {
  const starts = new Set<string>();
  for (const name of [...input.scene.party, ...input.scene.npcsPresent].map((c) => c.name)) {
    const first = nameStart(name);
    if (first) starts.add(first);
  }
  starts.delete("the");
  return (word) => {
    const lower = word.toLowerCase();
    return facts.nameStarts.has(lower) || starts.has(lower);
  };
}

/** A resource or an item that changed on a character's sheet: "Your resolve falls to 4." / "Ada gains a rope." */
function sheetLine(o: Extract<Outcome, { type: "resource" | "item" }>, voice: Voice): string {
  if (o.type === "item") {
    const count = Math.abs(o.change) === 1 ? o.item : `${Math.abs(o.change)} × ${o.item}`;
    return voice.of(o.actor, `You ${o.change > 0 ? "gain" : "lose"} ${count}.`);
  }
  const whose = voice.party ? `${o.actor}'s` : "Your";
  return `${whose} ${o.resource} ${o.to < o.from ? "falls" : "rises"} to ${o.to}.`;
}

/** "walk to ...", "I go to ...": the act opens with a movement verb (cheap, before asking the classifier). */
function opensWithMovement(text: string): boolean {
  const tokens = tokenize(text);
  const start = tokens[0]?.raw === "i" || tokens[0]?.raw === "we" ? 1 : 0;
  return tokens.length > start && movementVerbAt(tokens, start) !== null;
}

/**
 * An instruction of a `scope: "player"` trigger comes as "(for Ana, Bo) <instruction>" (the engine's
 * story.ts `attributed`): whom it is for, and the instruction itself.
 */
function addressees(text: string): { targets: string[]; instruction: string } {
  const m = /^\(for ([^()]{1,600})\) /.exec(text);
  if (!m) return { targets: [], instruction: text };
  return { targets: m[1]!.split(", ").filter((t) => t !== ""), instruction: text.slice(m[0].length) };
}
