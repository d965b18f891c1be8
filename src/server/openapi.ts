import { z } from "zod";
import { SERVER_ERRORS } from "./errors.ts";
import type { RouteSpec } from "./route.ts";

const ErrorBody = z.object({
  error: z.object({
    code: z.enum(Object.keys(SERVER_ERRORS) as [string, ...string[]]),
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
  }),
});

/** The error codes answered with `status`, for the description of that answer. */
function codesOf(status: number): string {
  const codes = Object.entries(SERVER_ERRORS)
    .filter(([, e]) => e.status === status)
    .map(([code]) => `\`${code}\``);
  return codes.length > 0 ? codes.join(", ") : "an error";
}

/**
 * The error statuses a route can answer whatever it does: a bad request, a limit, the server's own
 * failures, a token refused (routes that need one), a body refused (routes that take one). Each
 * route's own refusals (404, 409, 422...) are its `default` answer; every error has the same shape.
 */
function errorStatuses(r: RouteSpec<z.ZodType, z.ZodType, z.ZodType>): number[] {
  return [
    400,
    ...(r.access === "public" ? [] : [401, 403]),
    ...(r.body !== undefined || r.bodyLimit !== undefined ? [413, 415] : []),
    429,
    431,
    500,
    503,
  ];
}

const RETRY_AFTER = {
  "Retry-After": {
    description: "With 429 and 503 answers: the seconds to wait before retrying.",
    schema: { type: "integer", minimum: 0 },
  },
};

const schema = (s: z.ZodType) => z.toJSONSchema(s, { io: "input", unrepresentable: "any" });

/** The OpenAPI 3.1 document, made from the zod schemas the routes validate with. */
export function openApiDocument(
  routes: readonly RouteSpec<z.ZodType, z.ZodType, z.ZodType>[],
  version: string,
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.url.replace(/:([A-Za-z]+)/g, "{$1}");
    const parameters = [
      ...fields(r.params, "path"),
      ...fields(r.query, "query"),
      ...(r.headers ?? []).map((h) => ({
        name: h.name,
        in: "header",
        required: false,
        description: h.description,
        schema: schema(h.schema),
      })),
    ];
    const success = {
      description: "Success",
      content: { [r.produces ?? "application/json"]: { schema: r.response ? schema(r.response) : {} } },
    };
    const operation: Record<string, unknown> = {
      summary: r.summary,
      ...(r.operationId !== undefined ? { operationId: r.operationId } : {}),
      tags: [r.tag],
      ...(r.access === "public" ? {} : { security: [{ bearer: [] }], "x-access": r.access }),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(r.body
        ? { requestBody: { required: true, content: { "application/json": { schema: schema(r.body) } } } }
        : {}),
      responses: {
        [String(r.status ?? 200)]: success,
        ...Object.fromEntries((r.also ?? []).map((status) => [String(status), success])),
        ...Object.fromEntries(
          (r.otherwise ?? []).map((o) => [
            String(o.status),
            { description: o.description, content: { "application/json": { schema: schema(o.response) } } },
          ]),
        ),
        ...Object.fromEntries(
          errorStatuses(r).map((status) => [
            String(status),
            {
              description: `An error: ${codesOf(status)}.`,
              ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
              content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
            },
          ]),
        ),
        default: {
          description: "An error of this route (see the error code table)",
          headers: RETRY_AFTER,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
    };
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: { title: "Taleforge server", version },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: { Error: schema(ErrorBody) },
    },
    paths,
  };
}

function fields(object: z.ZodType | undefined, where: "path" | "query") {
  if (!object || !(object instanceof z.ZodObject)) return [];
  return Object.entries(object.shape as Record<string, z.ZodType>).map(([name, s]) => ({
    name,
    in: where,
    required: where === "path" || !s.safeParse(undefined).success,
    schema: schema(s),
  }));
}
