import { z } from "zod";
import { jsonObjectIn } from "../answers.ts";
import { AiError } from "../errors.ts";
import type { ChatMessage } from "../prompts/index.ts";
import { BadResponse, describeFailure, oneLine, rejectsParameter } from "./errors.ts";
import { send } from "./send.ts";
import { contextOf, type Transport } from "./transport.ts";
import { messagesText } from "./usage.ts";

/** A structured answer: its call, the name its JSON schema is sent under, and the zod schema that checks it. */
export interface StructuredSpec<T> {
  call: "intent" | "judge";
  name: string;
  schema: z.ZodType<T>;
  /** The JSON Schema sent to the server, made from `schema` (see jsonSchemaOf). */
  jsonSchema: Record<string, unknown>;
}

export function structuredSpec<T>(call: "intent" | "judge", schema: z.ZodType<T>): StructuredSpec<T> {
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
    if (key === "minimum" && inner === Number.MIN_SAFE_INTEGER) continue;
    out[key] = stripSafeBounds(inner);
  }
  return out;
}

/**
 * Asks for a structured answer and checks it with zod. An answer that is not
 * JSON or does not match gets ONE repair request (the bad answer goes back
 * with what is wrong); a second bad answer is AiError "bad-output".
 */
export async function structuredAnswer<T>(
  transport: Transport,
  spec: StructuredSpec<T>,
  messages: ChatMessage[],
  signal: AbortSignal | undefined,
): Promise<T> {
  const first = await complete(transport, spec, messages, signal);
  const parsed = parseAnswer(first, spec.schema);
  if (parsed.ok) return parsed.value;
  const repair: ChatMessage[] = [
    ...messages,
    { role: "assistant", content: first },
    { role: "user", content: repairRequest(parsed.error, spec) },
  ];
  const second = await complete(transport, spec, repair, signal);
  const again = parseAnswer(second, spec.schema);
  if (again.ok) return again.value;
  throw new AiError(
    "bad-output",
    `The model "${transport.model}" gave no usable ${spec.call} answer, even after a repair request: ${again.error}. Try a larger or instruction-tuned model.`,
  );
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
): Promise<string> {
  const context = contextOf(transport, spec.call);
  for (;;) {
    const format = transport.accepts.responseFormat;
    const sent = format === "json_schema" ? messages : withSchemaInPrompt(messages, spec);
    const outcome = await send(transport, context, signal, async (attempt) => {
      try {
        const response = await transport.client.chat.completions.create(
          {
            model: transport.model,
            messages: sent,
            ...responseFormat(format, spec),
          },
          { signal: attempt.signal },
        );
        return { response, content: contentOf(response) };
      } catch (error) {
        if (format !== "prompt" && rejectsParameter(describeFailure(error), RESPONSE_FORMAT))
          return { rejected: true as const };
        throw error;
      }
    });
    if ("rejected" in outcome) {
      if (transport.accepts.responseFormat === format)
        transport.accepts.responseFormat = format === "json_schema" ? "json_object" : "prompt";
      continue;
    }
    transport.usage.add(outcome.response.usage, { prompt: messagesText(sent), completion: outcome.content });
    return outcome.content;
  }
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

function contentOf(response: unknown): string {
  const choices = (response as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) throw new BadResponse("the answer has no choices");
  const message = (choices[0] as { message?: { content?: unknown; refusal?: unknown } } | undefined)?.message;
  if (typeof message?.content === "string") return message.content;
  if (typeof message?.refusal === "string") return message.refusal;
  return "";
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
