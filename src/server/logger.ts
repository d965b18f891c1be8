import { pino } from "pino";
import { formatPretty } from "./log-format.ts";

export type Logger = pino.Logger;

export type LogFormat = "json" | "pretty";

export interface LoggerOptions {
  level?: string;
  /** Where lines go (default: stdout). */
  destination?: NodeJS.WritableStream;
  /** JSON lines, or lines for a person (default: pretty on a terminal, JSON otherwise). */
  format?: LogFormat;
  /** Colour in the pretty format (default: on a terminal, unless NO_COLOR is set). */
  color?: boolean;
  /** Values never to write whatever field or message they turn up in (the provider's API key). */
  secrets?: (string | undefined)[];
}

/** Tokens this server issues, and any bearer credential, wherever they appear in a line. */
const TOKEN = /\b(tf[hp]_[A-Za-z0-9_-]{16,})|(\bBearer\s+)[^\s"',]+/g;

/**
 * One JSON line per request and per step (game, turn, duration, AI calls,
 * tokens), or the same as readable lines on a terminal. Credentials never
 * reach a log: authorization headers and key fields are redacted by path, and
 * every line is scrubbed of this server's tokens, bearer credentials and the
 * configured secrets (an API key echoed in a provider's error message).
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const out = options.destination ?? (pino.destination(1) as unknown as NodeJS.WritableStream);
  const tty =
    (out as { isTTY?: boolean }).isTTY ?? (options.destination ? false : process.stdout.isTTY === true);
  const format = options.format ?? (tty ? "pretty" : "json");
  const color = options.color ?? (tty && process.env.NO_COLOR === undefined);
  const secrets = (options.secrets ?? []).filter((s): s is string => typeof s === "string" && s.length >= 4);
  const scrub = (line: string) => {
    let text = line.replace(TOKEN, (_m, token: string | undefined, bearer: string | undefined) =>
      token ? "[redacted]" : `${bearer}[redacted]`,
    );
    for (const secret of secrets) text = text.split(secret).join("[redacted]");
    return text;
  };
  const destination = {
    write(line: string) {
      const clean = scrub(line);
      out.write(format === "pretty" ? `${formatPretty(clean.trimEnd(), color)}\n` : clean);
    },
    flush(done?: (error?: Error) => void) {
      try {
        (out as { flushSync?: () => void }).flushSync?.();
      } catch {
        // Not open yet (nothing written): nothing to flush.
      }
      done?.();
    },
  };
  return pino(
    {
      level: options.level ?? "info",
      redact: {
        paths: [
          "req.headers.authorization",
          "req.headers.cookie",
          "*.headers.authorization",
          "apiKey",
          "*.apiKey",
          "*.*.apiKey",
          "token",
          "*.token",
          "hostToken",
          "*.hostToken",
        ],
        censor: "[redacted]",
      },
    },
    destination as unknown as pino.DestinationStream,
  );
}

/** A logger that writes nothing (tests). */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
