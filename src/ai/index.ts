import type { World } from "../world/schema/index.ts";
import type { ProviderConfig } from "./config.ts";
import { createOfflineProvider } from "./offline/index.ts";
import { createOpenAiProvider } from "./openai/index.ts";
import type { Provider } from "./provider.ts";

/**
 * The AI layer's entry: providers (offline, OpenAI-compatible, recorded),
 * their configuration, prompts and cassettes. Hosts pick a provider from a
 * resolved config; the engine only sees the AiPorts it defines.
 */
export function createProvider(
  world: World,
  config: ProviderConfig,
  options: { gameMode: string | null },
): Provider {
  if (config.provider === "offline") return createOfflineProvider(world, { gameMode: options.gameMode });
  return createOpenAiProvider(world, {
    baseUrl: config.baseUrl,
    model: config.model,
    ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
    ...(config.embeddingModel !== undefined ? { embeddingModel: config.embeddingModel } : {}),
    ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
    ...(config.contextTokens !== undefined ? { contextTokens: config.contextTokens } : {}),
    gameMode: options.gameMode,
  });
}

export {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type CassetteData,
  type CassetteHeader,
  openCassetteWriter,
  parseCassette,
  readCassette,
} from "./cassette.ts";
export { type ProviderConfig, resolveProviderConfig } from "./config.ts";
export { AI_ERROR_KINDS, AiError, type AiErrorKind, isAiError } from "./errors.ts";
export { createOfflineProvider } from "./offline/index.ts";
export { createOpenAiProvider, type OpenAiOptions } from "./openai/index.ts";
export { emptyUsage, estimateTokens, type Provider, type Usage, usageSince } from "./provider.ts";
export { type RecordingProvider, Replay, recordProvider } from "./recorded.ts";
