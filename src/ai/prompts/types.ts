/** One chat message as OpenAI-compatible servers take it. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** A worldLore entry picked for a prompt: its map key and its text. */
export interface LoreEntry {
  key: string;
  text: string;
}

export interface NarrationPromptOptions {
  /** The key of the session's game mode in `world.gameModes`; null (or a key the world lacks) means none. */
  gameMode: string | null;
  /** Lore picked for this turn (src/ai/lore.ts `selectLore`), best first. */
  lore: LoreEntry[];
  /** The prompt's character budget when the server's context window is smaller than the default allows (budgets.ts `budgetsFor`). */
  budget?: number;
  /**
   * The trait holdings (world-text.ts `traitHolding`) the stable part of a turn's prompt lists
   * (issue 39): the party's traits as they were when the turns since the summary began, kept by
   * the provider per game (src/ai/openai/settled.ts `SettledMemory`). A holding gained since is listed after the
   * earlier turns, under "Traits gained lately", so a gained trait does not change the prefix that
   * holds the whole history. Left out: every trait in the stable part.
   */
  settledTraits?: ReadonlySet<string>;
  /**
   * The lore entries the stable part lists (issue 39): those picked when the turns since the
   * summary began, kept by the provider like `settledTraits`. "Lore that may matter now" then
   * lists only this turn's picks not among them. Left out: all of `lore` after the earlier turns.
   */
  settledLore?: readonly LoreEntry[];
  /**
   * The standing guidance the stable part lists (issue 39): the texts of recurring triggers
   * that were standing when the turns since the summary began and still are (the provider
   * settles again when one is no longer sent). The others this turn are listed after the
   * earlier turns. Left out: all standing guidance after the earlier turns.
   */
  settledStanding?: readonly string[];
}
