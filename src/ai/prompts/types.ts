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
}
