import type {
  CheckSnapshot,
  JsonObject,
  ScriptOutcome,
  ScriptPhase,
  ScriptPhaseInfo,
} from "../../src/engine/ports.ts";
import type { SandboxHost } from "../../src/sandbox/index.ts";

/** Shared inputs of the sandbox tests: a small party snapshot and one-call phases. */
export const SNAPSHOT: CheckSnapshot = {
  tick: 7,
  position: { realm: "Vale", region: "Northfield", location: "Old Mill", area: "Millyard" },
  characters: [
    { name: "Wren", level: 3, resources: { health: 8 }, traits: ["Brave"] },
    { name: "Ada", level: 1, resources: { health: 2 }, traits: [] },
  ],
  known: { "Old Mill": true },
  questsCompleted: ["Lost Sheep"],
  questStatus: {},
  eventStatus: {},
  storyText: "The mill wheel turns.",
  actions: ["look around"],
};

export interface CallInput {
  trigger?: string;
  storage?: JsonObject;
  effects?: JsonObject[];
  triggers?: JsonObject;
  snapshot?: CheckSnapshot;
}

export function phaseInfo(overrides: Partial<ScriptPhaseInfo> = {}): ScriptPhaseInfo {
  return { phase: "state", tick: 7, seed: 42, sessionId: "s1", triggerSetBytes: 200, ...overrides };
}

export function runIn(phase: ScriptPhase, script: string, input: CallInput = {}): Promise<ScriptOutcome> {
  return phase.run({
    trigger: input.trigger ?? "watch",
    script,
    snapshot: input.snapshot ?? SNAPSHOT,
    storage: input.storage ?? {},
    effects: input.effects ?? [],
    triggers: input.triggers ?? { watch: { name: "watch" } },
    engineVersion: 33,
    semanticVersion: "33.0.0",
  });
}

/** Runs one script in a phase of its own. */
export async function runOne(
  sandbox: SandboxHost,
  script: string,
  input: CallInput = {},
  info: Partial<ScriptPhaseInfo> = {},
): Promise<ScriptOutcome> {
  const phase = await sandbox.beginPhase(phaseInfo(info));
  try {
    return await runIn(phase, script, input);
  } finally {
    await phase.end();
  }
}

export function ok(outcome: ScriptOutcome): Extract<ScriptOutcome, { status: "ok" }> {
  if (outcome.status !== "ok") throw new Error(`expected ok, got ${JSON.stringify(outcome)}`);
  return outcome;
}

export function failure(outcome: ScriptOutcome): Extract<ScriptOutcome, { status: "error" }> {
  if (outcome.status !== "error") throw new Error(`expected an error, got ${JSON.stringify(outcome)}`);
  return outcome;
}
