import { BadResponse, oneLine } from "./errors.ts";

/**
 * The JSON body of a non-streamed answer, whatever content type it came with
 * (issue 15 item 14). The SDK parses a body only when its content type says
 * JSON and hands any other as a string; some local servers and proxies answer
 * valid JSON as `text/plain` (or with no content type at all). Such a string
 * is parsed here; one that is not JSON is reported as what it is: an answer
 * of content type X, not application/json (never "the answer has no choices").
 */
export function jsonBody(data: unknown, response: Response): unknown {
  if (typeof data !== "string") return data;
  const type = response.headers.get("content-type");
  try {
    return JSON.parse(data);
  } catch {
    const named = !type?.trim() ? "no content type" : `content type ${oneLine(type!, undefined, 80)}`;
    throw new BadResponse(
      `the server answered with ${named}, not application/json, and the body is not JSON`,
    );
  }
}
