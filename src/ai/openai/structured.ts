import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
} from "openai/resources/chat/completions";
import { z } from "zod";
import { jsonObjectIn } from "../answers.ts";
import { AiError } from "../errors.ts";
import type { ChatMessage } from "../prompts/index.ts";
import { jsonBody } from "./body.ts";
import { BadResponse, describeFailure, oneLine, rejectsParameter } from "./errors.ts";
import { STRUCTURED_RAISE } from "./limits.ts";
import { quoted } from "./narration.ts";
import { send } from "./send.ts";
import {
  contextOf,
  learnTokenParam,
  optionalParams,
  refusedParam,
  type Transport,
  tokenLimit,
} from "./transport.ts";
import { messagesText } from "./usage.ts";

/** A structured answer: its call, the name its JSON schema is sent under, and the zod schema that checks it. */
export interface StructuredSpec<T> {
  call: "intent" | "judge" | "summary";
  name: string;
  schema: z.ZodType<T>;
  /** The JSON Schema sent to the server, made from `schema` (see jsonSchemaOf). */
  jsonSchema: Record<string, unknown>;
}

export function structuredSpec<T>(
  call: "intent" | "judge" | "summary",
  schema: z.ZodType<T>,
): StructuredSpec<T> {
  return { call, name: `taleforge_${call}`, schema, jsonSchema: jsonSchemaOf(schema) };
}

/**
 * The JSON Schema of a zod schema as servers take it: without `$schema` and
 * without the safe-integer bounds zod adds to `.int()` (noise that some
 * schema-to-grammar converters choke on).
 */
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return stripSafeBounds(rest) as Record<string, unknown>;
}

function stripSafeBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSafeBounds);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === "maximum" && inner === Number.MAX_SAFE_INTEGER) continue;
    // A default is for our parse (an answer without `leader`), not a keyword strict servers take.
    if (key === "default") continue;
    if (key === "minimum" && inner === Number.MIN_SAFE_INTEGER) continue;
    out[key] = stripSafeBounds(inner);
  }
  return out;
}

/** How one structured call is sampled: the engine's seed, the game's cache key, the answer's token limit. */
export interface Sampling {
  seed?: number | undefined;
  game?: string | undefined;
  maxTokens: number;
}

/**
 * Asks for a structured answer and checks it with zod. An answer cut off by
 * its token limit (finish_reason "length") is asked again once with a higher
 * limit: it is not a model's bad JSON. A refusal is AiError "refused". An
 * answer that is not JSON or does not match gets ONE repair request (the bad
 * answer goes back with what is wrong); a second bad answer is AiError
 * "bad-output".
 */
export async function structuredAnswer<T>(
  transport: Transport,
  spec: StructuredSpec<T>,
  messages: ChatMessage[],
  signal: AbortSignal | undefined,
  sampling: Sampling = { maxTokens: 800 },
): Promise<T> {
  const first = await completeWhole(transport, spec, messages, signal, sampling);
  const parsed = parseAnswer(first, spec.schema);
  if (parsed.ok) return parsed.value;
  const repair: ChatMessage[] = [
    ...messages,
    { role: "assistant", content: first },
    { role: "user", content: repairRequest(parsed.error, spec) },
  ];
  const second = await completeWhole(transport, spec, repair, signal, sampling);
  const again = parseAnswer(second, spec.schema);
  if (again.ok) return again.value;
  throw AiError.of("bad-output", "unusable", {
    model: transport.model,
    call: spec.call,
    reason: again.error,
  });
}

/** One answer's text, not cut off and not a refusal (see structuredAnswer). */
async function completeWhole<T>(
  transport: Transport,
  spec: StructuredSpec<T>,
  messages: ChatMessage[],
  signal: AbortSignal | undefined,
  sampling: Sampling,
): Promise<string> {
  let maxTokens = sampling.maxTokens;
  for (let raised = false; ; raised = true) {
    const answer = await complete(transport, spec, messages, signal, { ...sampling, maxTokens });
    if (answer.refusal !== null)
      throw AiError.of("refused", "request", {
        model: transport.model,
        call: spec.call,
        refusal: quoted(answer.refusal, transport.apiKey),
      });
    if (answer.finish !== "length") return answer.content;
    if (raised)
      throw AiError.of("bad-output", "cut-off", {
        model: transport.model,
        tokens: maxTokens,
        call: spec.call,
      });
    maxTokens *= STRUCTURED_RAISE;
  }
}

/** The repair request: what was wrong, and the shape wanted. */
function repairRequest(error: string, spec: StructuredSpec<unknown>): string {
  return `Your answer could not be used: ${error}. Answer again with the corrected JSON object only, no other text, matching this JSON Schema: ${JSON.stringify(spec.jsonSchema)}`;
}

/** Servers that reject a response_format say so in a 400 (or 422, or a 500 from older llama.cpp builds). */
const RESPONSE_FORMAT = /response_format|json_schema|json schema|json_object|structured output|grammar/i;

/**
 * One completion's text, asked for with the best response format the server
 * takes: json_schema (strict), else json_object with the schema in the
 * prompt, else the prompt alone. A rejected format is remembered.
 */
async function complete<T>(
  transport: Transport,
  spec: StructuredSpec<T>,
  messages: ChatMessage[],
  signal: AbortSignal | undefined,
  sampling: Sampling,
): Promise<Answer> {
  const context = contextOf(transport, spec.call);
  for (;;) {
    const format = transport.accepts.responseFormat;
    const sent = format === "json_schema" ? messages : withSchemaInPrompt(messages, spec);
    const optional = optionalParams(transport, {
      temperature: 0,
      seed: sampling.seed,
      prompt_cache_key: sampling.game,
    });
    const outcome = await send(transport, context, signal, async (attempt) => {
      try {
        const body = {
          model: transport.model,
          messages: sent,
          ...tokenLimit(transport, sampling.maxTokens),
          ...optional,
          ...responseFormat(format, spec),
        };
        transport.sent.note(spec.call, body);
        const { data, response: raw } = await transport.client.chat.completions
          .create(body as ChatCompletionCreateParamsNonStreaming, { signal: attempt.signal })
          .withResponse();
        const response = jsonBody(data, raw) as ChatCompletion;
        return { response, answer: answerOf(response) };
      } catch (error) {
        const failure = describeFailure(error);
        if (learnTokenParam(transport, failure)) return { retry: true as const };
        const param = refusedParam(failure, optional);
        if (param !== null) return { refused: param as string };
        if (format !== "prompt" && rejectsParameter(failure, RESPONSE_FORMAT))
          return { rejected: true as const };
        throw error;
      }
    });
    if ("refused" in outcome && typeof outcome.refused === "string") {
      transport.accepts.refused.add(outcome.refused);
      continue;
    }
    if ("retry" in outcome) continue;
    if ("rejected" in outcome) {
      if (transport.accepts.responseFormat === format)
        transport.accepts.responseFormat = format === "json_schema" ? "json_object" : "prompt";
      continue;
    }
    transport.usage.add(outcome.response.usage, {
      prompt: messagesText(sent),
      completion: outcome.answer.content,
    });
    return outcome.answer;
  }
}

interface Answer {
  content: string;
  finish: string | null;
  /** The model's refusal text, when it refused (OpenAI's `refusal` field) instead of answering. */
  refusal: string | null;
}

function responseFormat(format: Transport["accepts"]["responseFormat"], spec: StructuredSpec<unknown>) {
  if (format === "json_schema")
    return {
      response_format: {
        type: "json_schema" as const,
        json_schema: { name: spec.name, strict: true, schema: spec.jsonSchema },
      },
    };
  if (format === "json_object") return { response_format: { type: "json_object" as const } };
  return {};
}

/** Without json_schema the server cannot see the schema: the first system message states it. */
function withSchemaInPrompt(messages: ChatMessage[], spec: StructuredSpec<unknown>): ChatMessage[] {
  const rule = `Answer with one JSON object only, no other text, matching this JSON Schema: ${JSON.stringify(spec.jsonSchema)}`;
  const at = messages.findIndex((m) => m.role === "system");
  if (at < 0) return [{ role: "system", content: rule }, ...messages];
  return messages.map((m, i) => (i === at ? { role: m.role, content: `${m.content}\n\n${rule}` } : m));
}

function answerOf(response: unknown): Answer {
  const choices = (response as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) throw new BadResponse("the answer has no choices");
  const choice = choices[0] as
    | { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }
    | undefined;
  const message = choice?.message;
  const content = typeof message?.content === "string" ? message.content : "";
  const finish = typeof choice?.finish_reason === "string" ? choice.finish_reason : null;
  const refused = typeof message?.refusal === "string" && message.refusal.trim() !== "";
  // finish_reason "content_filter" with nothing written is a refusal by the server's filter.
  const filtered = finish === "content_filter" && content.trim() === "";
  return {
    content,
    finish,
    refusal: refused
      ? (message!.refusal as string)
      : filtered
        ? "the content filter stopped the answer"
        : null,
  };
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Reads a model's JSON answer leniently (a reasoning block, code fences or
 * text around the object are tolerated), then checks it with the schema.
 */
function parseAnswer<T>(content: string, schema: z.ZodType<T>): Parsed<T> {
  const text = content
    .replace(/<think>[\s\S]*?<\/think>/gi, "")
    .replace(/```(?:json)?/gi, "")
    .trim();
  if (text === "") return { ok: false, error: "the answer was empty" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    value = jsonObjectIn(text);
    if (value === undefined)
      return {
        ok: false,
        error: `it is not valid JSON (${oneLine((error as Error).message, undefined, 100)})`,
      };
  }
  const checked = schema.safeParse(value);
  if (checked.success) return { ok: true, value: checked.data };
  const issues = checked.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "the answer"}: ${issue.message}`);
  return { ok: false, error: `it does not match the schema (${issues.join("; ")})` };
}
