import type { AiPorts } from "../engine/ports.ts";

/**
 * An AI provider: the engine's AI ports (intent, narration, judgement,
 * optional embeddings) bound to one world, plus what a host needs around
 * them. One file per provider: offline/, openai/, recorded.ts.
 */
export interface Provider extends AiPorts {
  /** "offline", "openai" or "recorded(<inner>)": shown to players and stored in cassettes. */
  readonly name: string;
  /** The model answering ("offline" for the offline provider). */
  readonly model: string;
  /** Calls and tokens so far; a host takes the difference around a turn for per-turn figures. */
  usage(): Usage;
  /** Releases what the provider holds (HTTP agents, open cassette files). */
  close(): Promise<void>;
  /** How the provider samples and bounds its calls, for the cassette header (issue 19 item 6); absent offline. */
  sampling?(): Record<string, number | null>;
  /**
   * The exact last request sent to the model of each kind, oldest first (issue 39: `taleforge play
   * --show-prompt` shows an author what the model saw); absent for providers that send none.
   */
  lastRequests?(): SentRequest[];
}

/** One request as it went to the server: its kind, its place in the order of sending, and its body. */
export interface SentRequest {
  kind: "intent" | "narration" | "judge" | "summary";
  /** 1 for the provider's first request, then counting up: a host shows only those newer than it saw. */
  seq: number;
  /** Where it went (the server's chat completions URL). */
  url: string;
  /** The JSON body as sent: model, messages, token limit, sampling, response format. */
  body: Record<string, unknown>;
}

export interface Usage {
  /** Model calls made (intent, narration, judge, embeddings). */
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens the server served from its prompt cache (issue 19 item 7), when it says; absent otherwise. */
  cachedTokens?: number;
}

export function emptyUsage(): Usage {
  return { calls: 0, promptTokens: 0, completionTokens: 0 };
}

/** `after - before`, field by field: the usage of whatever ran in between. */
export function usageSince(before: Usage, after: Usage): Usage {
  const used: Usage = {
    calls: after.calls - before.calls,
    promptTokens: after.promptTokens - before.promptTokens,
    completionTokens: after.completionTokens - before.completionTokens,
  };
  if (after.cachedTokens !== undefined) used.cachedTokens = after.cachedTokens - (before.cachedTokens ?? 0);
  return used;
}

/** A rough token count (about four characters a token in English), for budgets and offline figures. */
export function estimateTokens(text: string): number {
  return tokensForChars(text.length);
}

/** estimateTokens() of a text of `chars` characters. */
export function tokensForChars(chars: number): number {
  return Math.ceil(chars / 4);
}
