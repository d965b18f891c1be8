import { defineRule } from "../../rule.ts";
import { areasByLocation } from "../names.ts";

export default defineRule({
  code: "npc/basic-info-area",
  severity: "warning",
  description: "An NPC's `basicInfo` names an area of its location other than its `currentArea`.",
  why: "docs/format.md: an NPC's `basicInfo` names only its actual `currentArea`, or no area. The narrator reads both, so a description that places the NPC in another area makes it appear in two places. Area names are matched as whole words, ignoring case; a longer area name wins over a shorter one inside it.",
  messages: {
    other:
      "The basicInfo of NPC {npc} names area {area} of {location}, but the NPC stands in {currentArea}. Remove or reword the mention, or move the NPC to {area}.",
    noArea:
      'The basicInfo of NPC {npc} names area {area} of {location}, but the NPC has no currentArea. Set "currentArea" to {area}, or remove the mention.',
  },
  examples: {
    bad: {
      npcs: {
        "Ada Reed": {
          currentLocation: "Old Mill",
          currentArea: "Loft",
          basicInfo: "Sells flour in the millyard.",
        },
      },
    },
    good: {
      npcs: {
        "Ada Reed": { currentLocation: "Old Mill", currentArea: "Loft", basicInfo: "Sleeps in the loft." },
      },
    },
  },
  check({ world, raw, report }) {
    const areas = areasByLocation(raw);
    const matchers = new Map<string, AreaPattern[]>();
    for (const [key, npc] of Object.entries(world.npcs)) {
      if (!npc.basicInfo) continue;
      const own = areas.get(npc.currentLocation);
      if (!own || own.size === 0) continue;
      let list = matchers.get(npc.currentLocation);
      if (!list) {
        list = compile([...own.keys()]);
        matchers.set(npc.currentLocation, list);
      }
      for (const area of mentionedAreas(npc.basicInfo, list)) {
        if (area === npc.currentArea) continue;
        const blank = npc.currentArea.trim() === "";
        report({
          path: ["npcs", key, "basicInfo"],
          messageId: blank ? "noArea" : "other",
          data: {
            npc: JSON.stringify(key),
            area: JSON.stringify(area),
            location: JSON.stringify(npc.currentLocation),
            currentArea: JSON.stringify(npc.currentArea),
          },
          related: [{ path: ["locations", npc.currentLocation, "areas", area], message: "the area is here" }],
        });
      }
    }
  },
});

interface AreaPattern {
  area: string;
  /**
   * Made on first use: V8 parses a pattern when it is made, and each `\p{…}` class costs a lookup
   * of its Unicode table (20 M instructions, 2-3 ms, for the 1,142 areas of an at-cap world).
   */
  pattern: RegExp | undefined;
  /** The trimmed name in lower case when it is ASCII, for a quick test before the pattern runs. */
  ascii: string | undefined;
}

const ASCII = /^[\x00-\x7f]*$/;

/** Whole-word, case-insensitive patterns, longest name first so that "Market Street" hides "Market". */
function compile(names: string[]): AreaPattern[] {
  return names
    .filter((name) => name.trim() !== "")
    .sort((a, b) => b.length - a.length)
    .map((area) => ({
      area,
      pattern: undefined,
      ascii: ASCII.test(area) ? area.trim().toLowerCase() : undefined,
    }));
}

function patternOf(area: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(area.trim())}(?![\\p{L}\\p{N}_])`, "giu");
}

/** Areas named in the text, each once, in the order of the list. */
function mentionedAreas(text: string, list: AreaPattern[]): string[] {
  const taken: [number, number][] = [];
  const found: string[] = [];
  // In ASCII text, an ASCII name matches (ignoring case) only where its lower case occurs in the
  // lower-cased text, so most patterns need not run (and be compiled) at all.
  const lower = ASCII.test(text) ? text.toLowerCase() : undefined;
  for (const entry of list) {
    const { area, ascii } = entry;
    if (lower !== undefined && ascii !== undefined && !lower.includes(ascii)) continue;
    entry.pattern ??= patternOf(area);
    const pattern = entry.pattern;
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (taken.some(([s, e]) => start < e && s < end)) continue;
      taken.push([start, end]);
      if (!found.includes(area)) found.push(area);
    }
  }
  return found;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
