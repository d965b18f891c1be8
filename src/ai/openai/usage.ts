import { emptyUsage, estimateTokens, type Usage } from "../provider.ts";

/** Token figures as a server reports them (chat completions and embeddings share the names). */
export interface ReportedUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  /** OpenAI and vLLM report the prompt tokens served from the prompt cache here. */
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
}

/**
 * Counts calls and tokens over the provider's life. A call is one request the
 * server answered (a repair request counts; a 429 or a 5xx does not). When a
 * server reports no usage, the tokens are estimated from the text sent and
 * received (about four characters a token).
 */
export class UsageCounter {
  private total: Usage = emptyUsage();

  add(reported: ReportedUsage | null | undefined, estimate: { prompt: string; completion: string }): void {
    const prompt = reported?.prompt_tokens;
    const completion = reported?.completion_tokens;
    const cached = reported?.prompt_tokens_details?.cached_tokens;
    const hadCache = this.total.cachedTokens !== undefined || isCount(cached);
    this.total = {
      // Only servers that report cached tokens get the field: absent is "not said", not zero.
      ...(hadCache ? { cachedTokens: (this.total.cachedTokens ?? 0) + (isCount(cached) ? cached : 0) } : {}),
      calls: this.total.calls + 1,
      promptTokens: this.total.promptTokens + (isCount(prompt) ? prompt : estimateTokens(estimate.prompt)),
      completionTokens:
        this.total.completionTokens +
        (isCount(completion)
          ? completion
          : reported && isCount(prompt)
            ? 0
            : estimateTokens(estimate.completion)),
    };
  }

  snapshot(): Usage {
    return { ...this.total };
  }
}

function isCount(value: number | null | undefined): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

/** The text of a message list, for estimates. */
export function messagesText(messages: readonly { content: string }[]): string {
  return messages.map((m) => m.content).join("\n");
}
