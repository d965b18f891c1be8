/** Requests, a world and a provider factory shared by the OpenAI-compatible provider's tests. */
import { createOpenAiProvider, type OpenAiProviderOptions } from "../../src/ai/openai/index.ts";
import type { Provider } from "../../src/ai/provider.ts";
import type { IntentRequest, JudgeRequest, NarrationRequest } from "../../src/engine/ports.ts";
import type { World } from "../../src/world/schema/index.ts";
import { worldWith } from "../engine/helpers.ts";
import type { MockServer, RecordedRequest } from "./mock-server.ts";

export const world: World = worldWith();

const position = { realm: "The Vale", region: "Northfield", location: "Old Mill", area: "Millyard" };

export const intentRequest: IntentRequest = {
  tick: 1,
  player: "Player",
  text: "walk to the Fen Hut",
  places: [
    { name: "Fen Hut", kind: "location" },
    { name: "Southmarsh", kind: "region" },
  ],
  position,
  npcsPresent: [],
  recentStory: "Dawn light spills over the millyard.",
};

export function narrationRequest(overrides: Partial<NarrationRequest> = {}): NarrationRequest {
  return {
    tick: 1,
    opening: false,
    actions: [{ player: "Player", text: "look at the river" }],
    intent: { intent: "other" },
    instructions: [],
    event: null,
    scene: {
      position,
      locationInfo: "An old mill on the river.",
      areaDescription: "A muddy yard.",
      npcsPresent: [],
      party: [{ name: "Player", level: 1, resources: {}, traits: [] }],
      recentStory: ["Dawn light spills over the millyard."],
    },
    outcomes: [],
    summary: "",
    summarise: null,
    journal: [],
    partyNextStep: null,
    ...overrides,
  };
}

export const judgeRequest: JudgeRequest = {
  phase: "state",
  tick: 1,
  questions: [
    { trigger: "bell", conditionIndex: 0, kind: "story", query: "The bell rings." },
    { trigger: "fox", conditionIndex: 2, kind: "action", query: "The player chases a fox." },
  ],
  storyText: "The bell rings over the vale.",
  actions: [{ player: "Player", text: "ring the bell" }],
  players: ["Player", "Bea"],
};

/** The chat completion requests the mock server received, in order. */
export function chat(mock: MockServer): RecordedRequest[] {
  return mock.to("/v1/chat/completions");
}

/** Records the waits a provider asks for instead of waiting. */
export class Sleeps {
  readonly waits: number[] = [];
  readonly sleep = async (ms: number, signal?: AbortSignal) => {
    this.waits.push(ms);
    if (signal?.aborted) throw signal.reason;
  };
}

export function provider(
  mock: MockServer,
  options: Partial<OpenAiProviderOptions> = {},
  sleeps: Sleeps = new Sleeps(),
): Provider {
  return createOpenAiProvider(world, {
    baseUrl: mock.url,
    model: "test-model",
    timeoutMs: 2_000,
    ...options,
    retry: { sleep: sleeps.sleep, random: () => 0.5, ...options.retry },
  });
}

/** The AiError a promise rejects with (fails the test when it resolves). */
export async function failure(promise: Promise<unknown>): Promise<{ kind: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { kind: string; message: string };
  }
  throw new Error("expected the call to fail");
}
