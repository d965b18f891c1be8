import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

/**
 * The OpenAPI document as a contract the API tests hold every answer to: the harness's Client and
 * SSE listener check each answer (status, content type, JSON body, each event's payload) against the
 * operation that declares it, and fail the test on the first drift. A status an operation does not
 * declare is drift; an error answer must be the error shape of `default`. The JSON Schemas of the
 * document (2020-12, as OpenAPI 3.1 has them) are checked by Ajv.
 */

// biome-ignore lint/suspicious/noExplicitAny: the document is read as loose JSON.
type Json = any;

interface Operation {
  method: string;
  path: string;
  pattern: RegExp;
  /** Literal segments: `/games/join` is chosen over `/games/{id}`. */
  literals: number;
  responses: Record<string, Json>;
}

export interface Drift {
  operation: string;
  problem: string;
}

export class Contract {
  private readonly operations: Operation[] = [];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  private readonly compiled = new Map<object, ValidateFunction>();
  private readonly errorSchema: Json;

  constructor(readonly document: Json) {
    let errorSchema: Json;
    for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
      for (const [method, op] of Object.entries(methods)) {
        const segments = path.split("/").filter(Boolean);
        this.operations.push({
          method: method.toUpperCase(),
          path,
          pattern: new RegExp(
            `^${segments.map((s) => `/${s.startsWith("{") ? "[^/]+" : s.replace(/\./g, "\\.")}`).join("")}$`,
          ),
          literals: segments.filter((s) => !s.startsWith("{")).length,
          responses: op.responses,
        });
        errorSchema ??= this.deref(op.responses?.default?.content?.["application/json"]?.schema);
      }
    }
    this.errorSchema = errorSchema;
  }

  /** The operation a request goes to (HEAD: its GET), or undefined for a path outside the API. */
  operation(method: string, url: string): Operation | undefined {
    const path = url.split("?")[0] ?? "";
    const m = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
    return this.operations
      .filter((o) => o.method === m && o.pattern.test(path))
      .sort((a, b) => b.literals - a.literals)[0];
  }

  /** What is wrong with an answer as the document declares it; undefined when it holds. */
  check(
    method: string,
    url: string,
    status: number,
    contentType: string | null,
    text: string,
  ): Drift | undefined {
    const op = this.operation(method, url);
    const name = op ? `${op.method} ${op.path}` : `${method} ${url.split("?")[0]}`;
    const drift = (problem: string) => ({ operation: name, problem });
    const type = (contentType ?? "").split(";")[0]!.trim();
    if (!op) {
      // Outside the API (the web app, /healthz), or a path or method it does not have: only an error
      // answer has a shape to hold to.
      if (status < 400 || type !== "application/json") return undefined;
      return this.body(this.errorSchema, text, drift, "the error shape");
    }
    const declared = op.responses[String(status)];
    if (!declared && status < 400) return drift(`answers ${status}, which the document does not declare`);
    const response = declared ?? op.responses.default;
    if (!response) return drift(`answers ${status} and declares no default answer`);
    const content = response.content as Record<string, { schema?: Json }> | undefined;
    if (!content) return undefined;
    if (method.toUpperCase() === "HEAD") return undefined;
    if (!(type in content))
      return drift(
        `answers ${status} as ${type || "no content type"}; declared: ${Object.keys(content).join(", ")}`,
      );
    if (type !== "application/json") return undefined;
    return this.body(content[type]!.schema, text, drift, `the ${status} answer`);
  }

  /** What is wrong with one message of an event stream (`event`, `id`, `data`); undefined when it holds. */
  checkEvent(message: { event: string; id?: string; data: unknown }): Drift | undefined {
    const op = this.operations.find((o) => o.method === "GET" && o.path === "/games/{id}/events");
    const schema = op?.responses["200"]?.content?.["text/event-stream"]?.schema;
    const drift = (problem: string) => ({ operation: "GET /games/{id}/events", problem });
    if (!schema || Object.keys(schema).filter((k) => k !== "$schema").length === 0)
      return drift("declares no schema for its messages");
    // The branch of the union for this kind, so that what differs is said of it alone.
    const branch = (schema.oneOf as Json[] | undefined)?.find(
      (b) => b?.properties?.event?.const === message.event,
    );
    if (schema.oneOf && !branch) return drift(`event ${message.event}: no such event in the document`);
    const validate = this.validator(branch ?? schema);
    const shown = message.id === undefined ? { event: message.event, data: message.data } : message;
    if (validate(shown)) return undefined;
    return drift(`event ${message.event}: ${this.ajv.errorsText(validate.errors, { dataVar: "message" })}`);
  }

  private body(schema: Json, text: string, drift: (p: string) => Drift, what: string): Drift | undefined {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return drift(`${what} is not JSON: ${text.slice(0, 80)}`);
    }
    if (!schema || Object.keys(schema).filter((k) => k !== "$schema").length === 0)
      return drift(`${what} has no schema in the document`);
    const validate = this.validator(schema);
    if (validate(value)) return undefined;
    return drift(
      `${what} differs from its schema: ${this.ajv.errorsText(validate.errors, { dataVar: "body" })}`,
    );
  }

  /** A schema that is a reference to the document's components, as the schema it names. */
  private deref(schema: Json): Json {
    const ref = schema?.$ref as string | undefined;
    if (!ref?.startsWith("#/components/schemas/")) return schema;
    return this.document.components?.schemas?.[ref.slice("#/components/schemas/".length)];
  }

  private validator(given: object): ValidateFunction {
    const schema = this.deref(given);
    let v = this.compiled.get(schema);
    if (!v) {
      const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
      v = this.ajv.compile(rest);
      this.compiled.set(schema, v);
    }
    return v;
  }
}

let shared: Contract | undefined;

/**
 * The contract every API test's answers are checked against: the document of the first server the
 * harness starts (every server of this code has the same one). Undefined before any has started.
 */
export function sharedContract(): Contract | undefined {
  return shared;
}

export function rememberContract(document: Json): void {
  shared ??= new Contract(document);
}

/** Throws (failing the test) when an answer drifts from the document. */
export function assertHolds(drift: Drift | undefined): void {
  if (drift)
    throw new Error(`The answer drifts from the OpenAPI document: ${drift.operation} ${drift.problem}`);
}
