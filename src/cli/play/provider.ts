import { homedir } from "node:os";
import {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type CassetteHeader,
  openCassetteWriter,
} from "../../ai/cassette.ts";
import { resolveProviderConfig } from "../../ai/config.ts";
import { createProvider } from "../../ai/index.ts";
import type { Provider } from "../../ai/provider.ts";
import { recordProvider } from "../../ai/recorded.ts";
import { worldHash } from "../../engine/index.ts";
import type { GameSetup } from "../../host/game.ts";
import type { World } from "../../world/schema/index.ts";
import { fail, reasonOf } from "../exit.ts";
import type { CliIo } from "../io.ts";
import type { PlayFlags } from "./options.ts";
import type { ChosenSetup } from "./setup.ts";

/** The narrator: the cassette's when replaying, else the one the flags, environment and config name; or the exit code. */
export async function openProvider(
  world: World,
  flags: PlayFlags,
  chosen: Pick<ChosenSetup, "replay" | "gameMode">,
  cwd: string,
  io: CliIo,
): Promise<Provider | number> {
  try {
    if (chosen.replay) return chosen.replay.provider;
    const config = await resolveProviderConfig({ flags, env: io.env, cwd, home: homedir() });
    return createProvider(world, config, { gameMode: chosen.gameMode });
  } catch (error) {
    return fail(io, reasonOf(error));
  }
}

/** The provider, its every call written to a new cassette at `path` (--record). Throws when it cannot be opened. */
export function startRecording(
  provider: Provider,
  world: World,
  setup: GameSetup,
  path: string,
): ReturnType<typeof recordProvider> {
  const header: CassetteHeader = {
    format: CASSETTE_FORMAT,
    version: CASSETTE_VERSION,
    provider: provider.name,
    model: provider.model,
    embeddings: typeof provider.embed === "function",
    setup: {
      worldHash: worldHash(world),
      ...(JSON.parse(JSON.stringify(setup)) as Record<string, never>),
    },
    ...(provider.sampling ? { sampling: provider.sampling() } : {}),
  };
  return recordProvider(provider, openCassetteWriter(path, header));
}
