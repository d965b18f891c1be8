import { jsonBody } from "./body.ts";
import { BadResponse } from "./errors.ts";
import { send } from "./send.ts";
import { contextOf, type Transport } from "./transport.ts";

/** Texts per embeddings request: servers cap a request's inputs (OpenAI at 2048, some local ones lower). */
const EMBEDDING_BATCH = 64;

/**
 * Vectors for texts, in the texts' order, from the embedding model. Batches of
 * EMBEDDING_BATCH; each answer is put back in order by its `index`.
 */
export async function embedTexts(
  transport: Transport,
  model: string,
  texts: string[],
  signal: AbortSignal | undefined,
): Promise<number[][]> {
  const context = contextOf(transport, "embeddings");
  const vectors: number[][] = [];
  for (let start = 0; start < texts.length; start += EMBEDDING_BATCH) {
    const batch = texts.slice(start, start + EMBEDDING_BATCH);
    const response = await send(transport, context, signal, async (attempt) => {
      const { data, response: raw } = await transport.client.embeddings
        .create({ model, input: batch, encoding_format: "float" }, { signal: attempt.signal })
        .withResponse();
      const answer = jsonBody(data, raw) as typeof data;
      return { answer, vectors: inOrder(answer, batch.length) };
    });
    transport.usage.add(response.answer.usage, { prompt: batch.join("\n"), completion: "" });
    vectors.push(...response.vectors);
  }
  return vectors;
}

function inOrder(answer: unknown, count: number): number[][] {
  const data = (answer as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new BadResponse("the embeddings answer has no data");
  if (data.length !== count)
    throw new BadResponse(`the embeddings answer has ${data.length} vectors for ${count} texts`);
  const out: number[][] = new Array(count);
  data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
    const index = typeof item?.index === "number" ? item.index : position;
    const vector = item?.embedding;
    if (!Array.isArray(vector) || !vector.every((x) => typeof x === "number"))
      throw new BadResponse("an embedding is not a list of numbers");
    if (index < 0 || index >= count || out[index] !== undefined)
      throw new BadResponse("the embeddings answer's indexes do not match the texts");
    out[index] = vector;
  });
  return out;
}
