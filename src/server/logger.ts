import { pino } from "pino";

export type Logger = pino.Logger;

/**
 * One JSON line per request and per step (game, turn, duration, AI calls,
 * tokens). Authorization headers are redacted: tokens and provider keys never
 * reach a log.
 */
export function createLogger(options: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? "info",
      redact: { paths: ["req.headers.authorization", "*.apiKey", "apiKey"], censor: "[redacted]" },
    },
    (options.destination as pino.DestinationStream | undefined) ?? pino.destination(1),
  );
}

/** A logger that writes nothing (tests). */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
