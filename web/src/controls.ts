import type { GameView } from "./api.ts";

/** The story controls a game's rules govern (issue 33). */
export type StoryControl = "retry" | "undo" | "alter" | "rewind" | "switch";
/** What the reader may do with a control: use it, ask the party (a vote), or nothing. */
export type Permission = "apply" | "vote" | "denied";
export type Permissions = Record<StoryControl, Permission>;

export const STORY_CONTROLS: StoryControl[] = ["retry", "undo", "alter", "rewind", "switch"];

const ALL = (permission: Permission): Permissions =>
  Object.fromEntries(STORY_CONTROLS.map((c) => [c, permission])) as Permissions;

/**
 * What this page may do with each story control. The host's token applies every control; a
 * player's follows the game's rules, which the server says per caller (`may` of the game view,
 * read with the player's token). A game view without them (an older server) lets the host alone.
 */
export function permissionsOf(game: GameView, host: boolean): Permissions {
  if (host) return ALL("apply");
  const may = (game as { may?: Partial<Record<string, Permission>> }).may;
  const found = ALL("denied");
  for (const control of STORY_CONTROLS) found[control] = may?.[control] ?? "denied";
  return found;
}

/** Whether any story control is open to the reader (they see the controls at all). */
export function mayUseAny(permissions: Permissions): boolean {
  return STORY_CONTROLS.some((c) => permissions[c] !== "denied");
}

/**
 * A control's button text: its verb when it applies at once, "Ask the party to …" when it opens a
 * vote (the player is not doing it alone, and the button says so).
 */
export function controlLabel(permission: Permission, verb: string): string {
  return permission === "vote" ? `Ask the party to ${verb.charAt(0).toLowerCase()}${verb.slice(1)}` : verb;
}
