/**
 * Answers the provider already paid for (issue 19 item 5): when a turn fails
 * (the narration could not be had) and the player plays it again, the engine
 * sends the same intent and judge requests. The same request (same tick,
 * text, questions) gets the answer it got, without another call. Only the
 * last few answers are kept, so memory stays bounded; a request that differs
 * in anything is asked again.
 */
const KEPT = 8;

export class PaidAnswers {
  private readonly kept = new Map<string, unknown>();

  async answer<T>(call: string, request: unknown, ask: () => Promise<T>): Promise<T> {
    const key = `${call}\u0000${JSON.stringify(request)}`;
    if (this.kept.has(key)) return structuredClone(this.kept.get(key)) as T;
    const answer = await ask();
    this.kept.set(key, structuredClone(answer));
    while (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value as string);
    return answer;
  }
}
