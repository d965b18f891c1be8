import { readFile } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";
import { z } from "zod";
import { positionAt } from "../world/source.ts";
import { didYouMean } from "../world/suggest.ts";
import { AiError, type AiMessageId } from "./errors.ts";

/**
 * Which provider to play with, and its settings, from the command line, the
 * environment and a config file. Per setting, flags win over the
 * environment, which wins over the file. Every problem is an AiError
 * "config" saying where the bad value came from; the API key is never part
 * of a message.
 */
export type ProviderConfig =
  | { provider: "offline"; source: ConfigSource }
  | {
      provider: "openai";
      baseUrl: string;
      model: string;
      apiKey?: string;
      embeddingModel?: string;
      timeoutMs?: number;
      /** The server's context window in tokens (prompt budgets derive from it); see defaultContextTokens. */
      contextTokens?: number;
      source: ConfigSource;
    };

export type Setting =
  | "provider"
  | "baseUrl"
  | "model"
  | "apiKey"
  | "embeddingModel"
  | "timeout"
  | "contextTokens";

export interface ConfigSource {
  /** The config file that was read, or null when there was none. */
  file: string | null;
  /** Where each setting in use came from: "--model", "TALEFORGE_MODEL", "config file", "default". */
  settings: Partial<Record<Setting, string>>;
}

export interface ConfigFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  embeddingModel?: string;
  /** Seconds, as typed on the command line. */
  timeout?: string | number;
  /** The server's context window in tokens, as typed. */
  contextTokens?: string | number;
  /** The config file to read instead of the default places. */
  config?: string;
}

export interface ConfigInput {
  flags: ConfigFlags;
  env: Record<string, string | undefined>;
  cwd: string;
  home: string;
}

export const PROVIDERS = ["offline", "openai"] as const;
export const OPENAI_BASE_URL = "https://api.openai.com/v1";
export const CONFIG_FILE_NAME = "taleforge.config.json";

const FLAG: Record<Setting, string> = {
  provider: "--provider",
  baseUrl: "--base-url",
  model: "--model",
  apiKey: "--api-key",
  embeddingModel: "--embedding-model",
  timeout: "--timeout",
  contextTokens: "--context-tokens",
};

/** Environment variables per setting, first found wins. OPENAI_* are fallbacks shared with other tools. */
const ENV: Record<Setting, string[]> = {
  provider: ["TALEFORGE_PROVIDER"],
  baseUrl: ["TALEFORGE_BASE_URL", "OPENAI_BASE_URL"],
  model: ["TALEFORGE_MODEL"],
  apiKey: ["TALEFORGE_API_KEY", "OPENAI_API_KEY"],
  embeddingModel: ["TALEFORGE_EMBEDDING_MODEL"],
  timeout: ["TALEFORGE_TIMEOUT"],
  contextTokens: ["TALEFORGE_CONTEXT_TOKENS"],
};

/** Hosted services that always need a key. */
const KEYED_HOSTS = new Set(["api.openai.com", "openrouter.ai"]);

const FILE_FIELDS: Record<Setting, string> = {
  provider: 'must be "offline" or "openai"',
  baseUrl: "must be a string, the server's base URL (e.g. http://127.0.0.1:11434/v1)",
  model: "must be a string, the model name",
  apiKey: "must be a string",
  embeddingModel: "must be a string, the embedding model name",
  timeout: "must be a number of seconds > 0",
  contextTokens: "must be a whole number of tokens, e.g. 8192",
};

const ConfigFileSchema = z.strictObject({
  $schema: z.string().optional(),
  provider: z.enum(PROVIDERS).optional(),
  baseUrl: z.string().optional(),
  model: z.string().optional(),
  apiKey: z.string().optional(),
  embeddingModel: z.string().optional(),
  timeout: z.number().positive().optional(),
  contextTokens: z.number().int().positive().optional(),
});
type ConfigFile = z.infer<typeof ConfigFileSchema>;

function configError(messageId: AiMessageId<"config">, data: Record<string, string | number> = {}): never {
  throw AiError.of("config", messageId, data);
}

interface Found<T> {
  value: T;
  from: string;
}

export async function resolveProviderConfig(input: ConfigInput): Promise<ProviderConfig> {
  const { flags, env } = input;
  const file = await readConfigFile(input);
  const pick = (setting: Setting): Found<string> | null => {
    const flag = flags[setting];
    if (flag !== undefined && String(flag).trim() !== "")
      return { value: String(flag).trim(), from: FLAG[setting] };
    for (const name of ENV[setting]) {
      const value = env[name]?.trim();
      if (value) return { value, from: name };
    }
    const inFile = file?.data[setting];
    if (inFile !== undefined && String(inFile).trim() !== "")
      return { value: String(inFile).trim(), from: "config file" };
    return null;
  };
  const source: ConfigSource = { file: file?.path ?? null, settings: {} };

  const providerSetting = pick("provider");
  const baseUrlSetting = pick("baseUrl");
  const modelSetting = pick("model");
  let provider: (typeof PROVIDERS)[number];
  if (providerSetting) {
    provider = checkProvider(providerSetting);
    source.settings.provider = providerSetting.from;
  } else {
    // A base URL or a model chosen for Taleforge means a server; OPENAI_BASE_URL alone does not switch.
    const chosen = (found: Found<string> | null) => found !== null && found.from !== "OPENAI_BASE_URL";
    provider = chosen(baseUrlSetting) || chosen(modelSetting) ? "openai" : "offline";
    source.settings.provider =
      provider === "openai" ? `${(baseUrlSetting ?? modelSetting)!.from} (implied)` : "default";
  }
  if (provider === "offline") return { provider, source };

  const baseUrl = baseUrlSetting ? checkBaseUrl(baseUrlSetting) : OPENAI_BASE_URL;
  source.settings.baseUrl = baseUrlSetting?.from ?? "default";
  if (!modelSetting) configError(baseUrlSetting ? "model-with-base-url" : "model-with-openai");
  source.settings.model = modelSetting.from;
  const config: Extract<ProviderConfig, { provider: "openai" }> = {
    provider,
    baseUrl,
    model: modelSetting.value,
    source,
  };
  const apiKey = pick("apiKey");
  if (apiKey) {
    config.apiKey = apiKey.value;
    source.settings.apiKey = apiKey.from;
  } else if (KEYED_HOSTS.has(new URL(baseUrl).hostname)) {
    configError("needs-key", { baseUrl, local: baseUrlSetting ? "" : " (or --base-url for a local server)" });
  }
  const embeddingModel = pick("embeddingModel");
  if (embeddingModel) {
    config.embeddingModel = embeddingModel.value;
    source.settings.embeddingModel = embeddingModel.from;
  }
  const timeout = pick("timeout");
  if (timeout) {
    config.timeoutMs = checkTimeout(timeout);
    source.settings.timeout = timeout.from;
  }
  const contextTokens = pick("contextTokens");
  if (contextTokens) {
    config.contextTokens = checkContextTokens(contextTokens);
    source.settings.contextTokens = contextTokens.from;
  } else {
    const fallback = defaultContextTokens(baseUrl);
    if (fallback !== undefined) {
      config.contextTokens = fallback;
      source.settings.contextTokens = "default for this server";
    }
  }
  return config;
}

/**
 * The context window assumed when none is set (issue 19 item 9): Ollama
 * serves 4,096 tokens unless told otherwise, and silently drops the start of
 * a longer prompt; hosted APIs and other servers get the built-in budgets
 * (about 5,000 tokens of narration prompt), fit for 8k windows and up.
 */
export function defaultContextTokens(baseUrl: string): number | undefined {
  return /:11434(\/|$)/.test(baseUrl) ? 4_096 : undefined;
}

function checkContextTokens(found: Found<string>): number {
  const tokens = Number(found.value);
  if (!Number.isInteger(tokens) || tokens < 2_048 || tokens > 10_000_000)
    configError("context-tokens", { value: found.value, from: found.from });
  return tokens;
}

/** One line for players and logs: the provider, the model, the server, and where the key came from (never the key). */
export function describeProviderConfig(config: ProviderConfig): string {
  if (config.provider === "offline") return "offline (no AI server)";
  const key = config.source.settings.apiKey ? `, key from ${config.source.settings.apiKey}` : "";
  return `openai: model "${config.model}" at ${config.baseUrl}${key}`;
}

function checkProvider(found: Found<string>): (typeof PROVIDERS)[number] {
  const name = found.value.toLowerCase();
  if ((PROVIDERS as readonly string[]).includes(name)) return name as (typeof PROVIDERS)[number];
  return configError("unknown-provider", {
    value: found.value,
    from: found.from,
    suggestion: didYouMean(name, PROVIDERS),
  });
}

/** The value as an http(s) URL with a host, or null when it is not one. */
export function httpUrl(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "" ? url : null;
}

function checkBaseUrl(found: Found<string>): string {
  if (httpUrl(found.value) === null) configError("base-url", { value: found.value, from: found.from });
  return found.value.replace(/\/+$/, "");
}

/**
 * The longest per-request timeout, in seconds: one day. Node's timers hold at
 * most 2^31-1 ms (about 24.8 days); a longer delay fires at once, which made
 * every request fail immediately.
 */
export const MAX_TIMEOUT_SECONDS = 86_400;

function checkTimeout(found: Found<string>): number {
  const seconds = Number(found.value);
  if (!Number.isFinite(seconds) || seconds <= 0)
    configError("timeout", { value: found.value, from: found.from });
  if (seconds > MAX_TIMEOUT_SECONDS)
    configError("timeout-over", { value: found.value, from: found.from, max: MAX_TIMEOUT_SECONDS });
  // At least 1 ms: a timer of 0 would fire before any answer.
  return Math.max(1, Math.round(seconds * 1000));
}

/**
 * The config file: --config, else taleforge.config.json in the working
 * directory, else ~/.config/taleforge/config.json ($XDG_CONFIG_HOME when
 * set). A missing default file is no error; a missing --config file is.
 */
async function readConfigFile(input: ConfigInput): Promise<{ path: string; data: ConfigFile } | null> {
  const explicit = input.flags.config?.trim();
  if (explicit) {
    const path = isAbsolute(explicit) ? explicit : resolve(input.cwd, explicit);
    const text = await readText(path, true);
    return { path, data: parseConfigFile(path, text!) };
  }
  const configHome = input.env.XDG_CONFIG_HOME?.trim() || join(input.home, ".config");
  for (const path of [join(input.cwd, CONFIG_FILE_NAME), join(configHome, "taleforge", "config.json")]) {
    const text = await readText(path, false);
    if (text !== null) return { path, data: parseConfigFile(path, text) };
  }
  return null;
}

async function readText(path: string, required: boolean): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !required) return null;
    if (code === "ENOENT") return configError("file-missing", { path });
    return configError("file-unreadable", { path, reason: code ?? "unknown error" });
  }
}

/** Checks a config file's text; messages name the file, the place and the field, never the key's value. */
function parseConfigFile(path: string, text: string): ConfigFile {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const { line, column } = positionAt({ name: path, text }, first.offset);
    configError("file-json", { path, line, column, reason: printParseErrorCode(first.error) });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    configError("file-not-object", { path });
  const checked = ConfigFileSchema.safeParse(value);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0]!;
    return configError("file-unknown-field", {
      path,
      key,
      suggestion: didYouMean(key, Object.keys(FILE_FIELDS)),
      fields: Object.keys(FILE_FIELDS).join(", "),
    });
  }
  const field = String(issue.path[0]) as Setting | "$schema";
  if (field === "$schema") return configError("file-schema", { path });
  const got =
    field === "apiKey"
      ? ""
      : ` (got ${JSON.stringify((value as Record<string, unknown>)[field]) ?? "nothing"})`;
  return configError("file-field", { path, field, rule: FILE_FIELDS[field], got });
}
