import type { GameView } from "./api.ts";

/** The story controls a game's rules govern (issue 33); `branch` is switching, naming and deleting branches. */
export type StoryControl = "retry" | "undo" | "alter" | "rewind" | "branch";
/** What the reader's request for a control leads to: done at once, a party vote, or nothing. */
export type Permission = "apply" | "vote" | "denied";
/** What the reader may do with a control, and the token that asks for it. */
export interface Access {
  permission: Permission;
  token: string;
}
export type Permissions = Record<StoryControl, Access>;

export const STORY_CONTROLS: StoryControl[] = ["retry", "undo", "alter", "rewind", "branch"];

/**
 * What this page may do with each story control, and with which token. The server says it per
 * caller (`may` of the game view, read with the player's token when the reader plays): a control
 * the rules leave to the host is the host token's; any other is asked with the player's token when
 * the reader plays (under a vote, their own ballot is the first yes). A game view without rules
 * (an older server) leaves every control to the host.
 */
export function permissionsOf(
  game: GameView,
  tokens: { host?: string | undefined; player?: string | undefined },
) {
  const found = {} as Permissions;
  for (const control of STORY_CONTROLS) {
    const rule = game.controls?.[control];
    const may = game.may?.[control];
    if (tokens.host && (may === undefined || rule === "host" || !tokens.player))
      found[control] = {
        permission: may === undefined || rule === "host" ? "apply" : may,
        token: tokens.host,
      };
    else if (tokens.player && may !== undefined) found[control] = { permission: may, token: tokens.player };
    else found[control] = { permission: "denied", token: "" };
  }
  return found;
}

/** Whether any control of the last turn is open to the reader (they see the controls at all). */
export function mayUseAny(permissions: Permissions): boolean {
  return (["retry", "undo", "alter"] as const).some((c) => permissions[c].permission !== "denied");
}

/**
 * A control's button text: its verb when it applies at once, "Ask the party to …" when it opens a
 * vote (the player is not doing it alone, and the button says so).
 */
export function controlLabel(permission: Permission, verb: string): string {
  return permission === "vote" ? `Ask the party to ${verb.charAt(0).toLowerCase()}${verb.slice(1)}` : verb;
}
