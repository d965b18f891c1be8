import type { WorldIndex } from "../../engine/index.ts";
import { normaliseKey } from "../../engine/index.ts";
import type { JsonPath } from "../../world/diagnostic.ts";
import { didYouMean } from "../../world/suggest.ts";
import { type PlannedTest, playerNames, type SettingKey } from "./plan.ts";
import { type Locate, type Problem, problemAt } from "./problem.ts";
import type { Expect, Step } from "./schema.ts";
import { scriptTriggerNames } from "./script-triggers.ts";

/**
 * Every name a play-test uses, checked against its world before anything
 * runs, so that a typo fails loudly at its position instead of passing (or
 * failing) for the wrong reason. Trigger keys are the exception: scripts may
 * add triggers during play, so `fired`, `notFired` and `judge` keys are
 * checked when the step runs (against the triggers live by then).
 */
export function checkNames(tests: readonly PlannedTest[], index: WorldIndex, locate: Locate): Problem[] {
  const problems: Problem[] = [];
  for (const test of tests) new NameCheck(test, index, locate, problems).run();
  // Settings shared by several tests are reported once.
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${JSON.stringify(p.path)}|${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The trigger keys a play-test names (`fired`, `notFired`, `firedOnly`,
 * `judge`) that neither the world nor any of its scripts (read as text) can
 * produce: what an editor can say before anything runs. Nothing is reported
 * when some script writes to `triggers` under a computed key, since then any
 * key may appear; `taleforge test` checks these keys against the live
 * triggers when the step runs.
 */
export function checkTriggerNames(
  tests: readonly PlannedTest[],
  index: WorldIndex,
  locate: Locate,
): Problem[] {
  const scripts = scriptTriggerNames(
    Object.values(index.baseTriggers).flatMap((t) => (typeof t.script === "string" ? [t.script] : [])),
  );
  if (scripts.anyName) return [];
  const known = [...new Set([...Object.keys(index.baseTriggers), ...scripts.names])];
  const problems: Problem[] = [];
  const report = (name: string, path: JsonPath, atKey: boolean) => {
    if (known.includes(name)) return;
    problems.push(
      problemAt(
        locate,
        "playtest/unknown-name",
        path,
        "unknown",
        {
          kind: "trigger",
          name,
          where: "in the world or its scripts",
          suggestion: didYouMean(name, known),
          known: knownList(known),
        },
        atKey,
      ),
    );
  };
  for (const test of tests)
    test.steps.forEach((step, i) => {
      const at = [...test.path, "turns", i];
      for (const key of Object.keys(step.judge ?? {})) report(key, [...at, "judge", key], true);
      for (const list of ["fired", "notFired", "firedOnly"] as const)
        step.expect?.[list]?.forEach((key, j) => {
          report(key, [...at, "expect", list, j], false);
        });
    });
  return problems;
}

/** The known names a message lists: all of a few, else a count and some. */
function knownList(known: readonly string[]): string {
  return known.length === 0
    ? "none"
    : known.length <= 12
      ? known.map((k) => `"${k}"`).join(", ")
      : `${known.length}, e.g. ${known
          .slice(0, 6)
          .map((k) => `"${k}"`)
          .join(", ")}`;
}

class NameCheck {
  private readonly world;
  private readonly players: string[];
  private readonly party: string[];
  private readonly areas: string[];

  constructor(
    private readonly test: PlannedTest,
    private readonly index: WorldIndex,
    private readonly locate: Locate,
    private readonly problems: Problem[],
  ) {
    this.world = index.world;
    this.players = playerNames(test.players);
    const start = test.storyStart !== undefined ? this.world.storyStarts[test.storyStart] : undefined;
    const fallback =
      Object.values(this.world.storyStarts).find((s) => s.isDefault === true) ??
      Object.values(this.world.storyStarts)[0];
    const npcs = ((start ?? fallback)?.startingPartyNPCs ?? []).filter((k) =>
      Object.hasOwn(this.world.npcs, k),
    );
    this.party = [...this.players, ...npcs];
    this.areas = [...new Set(Object.values(this.world.locations).flatMap((l) => Object.keys(l.areas ?? {})))];
  }

  run(): void {
    const { test, world } = this;
    const settings = (key: SettingKey): JsonPath => test.origin[key];
    if (test.storyStart !== undefined)
      this.name("story start", test.storyStart, Object.keys(world.storyStarts), settings("storyStart"));
    if (test.gameMode !== null)
      this.name("game mode", test.gameMode, Object.keys(world.gameModes ?? {}), settings("gameMode"));
    test.players?.forEach((p, i) => {
      const at = [...settings("players"), i];
      if (p.premade !== undefined)
        this.name(
          "premade character",
          p.premade,
          world.premadeCharacters.map((c) => c.name),
          [...at, "premade"],
        );
      p.traits?.forEach((t, j) => {
        this.name("trait", t, Object.keys(world.traits), [...at, "traits", j]);
      });
      for (const a of Object.keys(p.attributes ?? {}))
        this.keyName("attribute", a, world.attributeSettings.attributeNames, [...at, "attributes", a]);
    });
    for (const [name, player] of Object.entries(test.given?.players ?? {})) {
      const at = [...settings("given"), "players", name];
      if (this.keyName("party member", name, this.party, at))
        for (const r of Object.keys(player.resources ?? {}))
          this.keyName("resource", r, Object.keys(world.resourceSettings), [...at, "resources", r]);
    }
    test.steps.forEach((step, i) => {
      this.step(step, [...test.path, "turns", i]);
    });
  }

  private step(step: Step, at: JsonPath): void {
    const world = this.world;
    if (step.player !== undefined) this.name("player", step.player, this.players, [...at, "player"]);
    step.acts?.forEach((a, i) => {
      this.name("player", a.player, this.players, [...at, "acts", i, "player"]);
    });
    for (const kind of ["accept", "reject", "abandon"] as const) {
      const quest = step[kind];
      if (quest !== undefined) this.name("quest", quest, Object.keys(world.quests), [...at, kind]);
    }
    if (step.expect) this.expect(step.expect, [...at, "expect"]);
  }

  private expect(e: Expect, at: JsonPath): void {
    const world = this.world;
    for (const [quest, value] of Object.entries(e.quests ?? {})) {
      const path = [...at, "quests", quest];
      if (!this.keyName("quest", quest, Object.keys(world.quests), path)) continue;
      if (typeof value === "object")
        for (const id of Object.keys(value.objectives ?? {}))
          this.keyName(
            "objective",
            id,
            Object.keys(world.quests[quest]!.objectives ?? {}),
            [...path, "objectives", id],
            `in quest "${quest}"`,
          );
    }
    for (const event of Object.keys(e.events ?? {}))
      this.keyName("narrative event", event, Object.keys(world.narrativeEvents ?? {}), [
        ...at,
        "events",
        event,
      ]);
    for (const entity of Object.keys(e.known ?? {}))
      this.keyName("entity", entity, Object.keys(this.index.defaultKnown), [...at, "known", entity]);
    const party = e.party ?? {};
    if (party.realm !== undefined)
      this.name("realm", party.realm, Object.keys(world.realms), [...at, "party", "realm"]);
    if (party.region !== undefined)
      this.name("region", party.region, Object.keys(world.regions), [...at, "party", "region"]);
    if (party.location !== undefined)
      this.name("location", party.location, Object.keys(world.locations), [...at, "party", "location"]);
    if (party.area !== undefined) this.name("area", party.area, this.areas, [...at, "party", "area"]);
    e.prompts?.forEach((q, i) => {
      this.name("quest", q, Object.keys(world.quests), [...at, "prompts", i]);
    });
    for (const [name, p] of Object.entries(e.players ?? {})) {
      const path = [...at, "players", name];
      if (!this.keyName("party member", name, this.party, path)) continue;
      for (const r of Object.keys(p.resources ?? {}))
        this.keyName("resource", r, Object.keys(world.resourceSettings), [...path, "resources", r]);
      for (const a of Object.keys(p.attributes ?? {}))
        this.keyName("attribute", a, world.attributeSettings.attributeNames, [...path, "attributes", a]);
      for (const list of ["traits", "hasTraits", "lacksTraits"] as const)
        p[list]?.forEach((t, i) => {
          this.name("trait", t, Object.keys(world.traits), [...path, list, i]);
        });
      for (const item of Object.keys(p.items ?? {}))
        this.keyName("item", item, Object.keys(world.items), [...path, "items", item]);
    }
  }

  /** A name written as a value. Case-insensitive matches are accepted where the engine accepts them. */
  private name(kind: string, name: string, known: readonly string[], path: JsonPath): boolean {
    return this.check(kind, name, known, path, false);
  }

  /** A name written as a key: reported at the key. */
  private keyName(
    kind: string,
    name: string,
    known: readonly string[],
    path: JsonPath,
    where?: string,
  ): boolean {
    return this.check(kind, name, known, path, true, where);
  }

  private check(
    kind: string,
    name: string,
    known: readonly string[],
    path: JsonPath,
    atKey: boolean,
    where = kind === "player" || kind === "party member" ? "in this play-test's party" : "in the world",
  ): boolean {
    if (known.includes(name)) return true;
    if (kind === "resource" || kind === "attribute") {
      if (known.some((k) => normaliseKey(k) === normaliseKey(name))) return true;
    }
    const list = knownList(known);
    this.problems.push(
      problemAt(
        this.locate,
        "playtest/unknown-name",
        path,
        "unknown",
        { kind, name, where, suggestion: didYouMean(name, known), known: list },
        atKey,
      ),
    );
    return false;
  }
}
