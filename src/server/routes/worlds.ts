import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { AttributeRules, PremadesView, StoryStartsView, Text, WorldSummaryView } from "../answers.ts";
import { bearer, hashToken, missingToken } from "../auth.ts";
import { ApiError } from "../errors.ts";
import { route } from "../route.ts";
import { WorldParams, WorldUploadQuery } from "../schemas.ts";
import type { Store } from "../store/store.ts";
import { premades, storyStarts, worldSummary } from "../views.ts";
import type { WorkPool } from "../work/pool.ts";
import { bundleExampleWorld, checkInPool, type WorldCache } from "../worlds.ts";

/** One world of GET /worlds; the example world is `bundled`. */
export const WorldListing = z.object({
  hash: z.string(),
  name: z.string(),
  bytes: z.number(),
  createdAt: z.number(),
  bundled: z.boolean(),
});

export { AttributeRules };

/** Worlds: upload (checked, content-addressed), list, and what players may read of one. */
export function worldRoutes(
  app: FastifyInstance,
  store: Store,
  worlds: WorldCache,
  limits: { worldLimit: number },
  pool: WorkPool,
  uploads: UploadPolicy,
) {
  // Who uploads, before the body is read: a caller without an upload token sends no 8 MiB for nothing.
  app.addHook("onRequest", async (request) => {
    if (request.method !== "POST" || request.url.split("?")[0] !== "/worlds") return;
    (request as { uploader?: string }).uploader = await uploaderOf(store, uploads, request);
  });
  // The example world is always listed: stored (content-addressed, like an upload) when the server starts.
  let bundled: string | undefined;
  app.addHook("onReady", async () => {
    bundled = await bundleExampleWorld(store, worlds);
  });

  route(
    app,
    store,
    {
      method: "POST",
      url: "/worlds",
      summary:
        "Upload a world file (the body is the file). Errors with one obvious reading are repaired (each a `compat/repaired` warning of the report), a quest no trigger starts is reported and played as `taleforge play` plays it, and any other error refuses the world with its check report. `strict=true` refuses any error.",
      tag: "worlds",
      access: "public",
      query: WorldUploadQuery,
      bodyLimit: limits.worldLimit,
      status: 201,
      response: z.object({ hash: z.string(), name: z.string(), created: z.boolean(), report: z.unknown() }),
      // The same bytes again: nothing is stored, the answer is 200 with `created: false`.
      also: [200],
    },
    async ({ query, request, reply }) => {
      const text = (request as { rawText?: string }).rawText;
      if (text === undefined || text.trim() === "") throw new ApiError("request/invalid", "no-world");
      const uploader = (request as { uploader?: string }).uploader ?? "operator";
      const name = query.name ?? "world";
      // Checked (and hashed) in a work thread: the event loop goes on serving other games meanwhile.
      const { hash, world, report } = await checkInPool(
        pool,
        text,
        name,
        uploads.strict === true || query.strict === "true",
      );
      // A world already stored takes no room: only a new one counts against the quotas.
      const known = (await store.world(hash)) !== undefined;
      if (!known && uploader !== "operator") {
        const used = await store.worldQuotas(uploader);
        if (used.mine >= uploads.perUploader)
          throw new ApiError(
            "world/quota",
            "uploader",
            { count: used.mine, max: uploads.perUploader },
            { per: "uploader", limit: uploads.perUploader },
          );
        if (used.bytes + Buffer.byteLength(text) > uploads.totalBytes)
          throw new ApiError(
            "world/quota",
            "total",
            { max: bytesText(uploads.totalBytes) },
            { per: "server", limitBytes: uploads.totalBytes },
          );
      }
      const created = await store.putWorld({
        hash,
        name,
        text,
        bytes: Buffer.byteLength(text),
        warnings: JSON.stringify(report.diagnostics),
        created_at: Date.now(),
        uploader,
      });
      worlds.remember(hash, world);
      if (!created) reply.code(200);
      return { hash, name, created, report };
    },
  );

  route(
    app,
    store,
    {
      method: "GET",
      url: "/worlds",
      summary: "List the uploaded worlds, newest first; the bundled example world is always there.",
      tag: "worlds",
      access: "public",
      response: z.object({ worlds: z.array(WorldListing) }),
    },
    async () => {
      const rows = await store.worlds(500);
      // Past the 500 newest uploads the example would drop off the list: it is listed last then.
      if (bundled !== undefined && !rows.some((w) => w.hash === bundled)) {
        const row = await store.world(bundled);
        if (row) rows.push(row);
      }
      return {
        worlds: rows.map((w) => ({
          hash: w.hash,
          name: w.name,
          bytes: w.bytes,
          createdAt: w.created_at,
          bundled: w.hash === bundled,
        })),
      };
    },
  );

  const named = async (hash: string) => {
    const row = await store.world(hash);
    if (!row) throw new ApiError("world/not-found", "no-world", { hash }, { hash });
    return { row, world: await worlds.get(hash) };
  };

  route(
    app,
    store,
    {
      method: "GET",
      url: "/worlds/:hash",
      summary: "A world's public summary.",
      tag: "worlds",
      access: "public",
      params: WorldParams,
      response: WorldSummaryView,
    },
    async ({ params }) => {
      const { row, world } = await named(params.hash);
      const settings = world.attributeSettings;
      const attributes: z.infer<typeof AttributeRules> = {
        names: settings.attributeNames,
        starting: settings.startingAttributeValue,
        points: settings.startingAttributePoints,
        max: settings.maxStartingAttribute,
      };
      return {
        ...worldSummary(world, row.hash, row.name),
        attributes,
        warnings: JSON.parse(row.warnings) as unknown[],
      };
    },
  );

  route(
    app,
    store,
    {
      method: "GET",
      url: "/worlds/:hash/starts",
      summary: "A world's story starts.",
      tag: "worlds",
      access: "public",
      params: WorldParams,
      response: StoryStartsView,
    },
    async ({ params }) => ({ storyStarts: storyStarts((await named(params.hash)).world) }),
  );

  route(
    app,
    store,
    {
      method: "GET",
      url: "/worlds/:hash/premades",
      summary: "A world's premade characters.",
      tag: "worlds",
      access: "public",
      params: WorldParams,
      response: PremadesView,
    },
    async ({ params }) => ({ premadeCharacters: premades((await named(params.hash)).world) }),
  );

  route(
    app,
    store,
    {
      method: "GET",
      url: "/worlds/:hash/map.svg",
      summary: "A realm's map as SVG (what `taleforge map` draws), with the world's default known places.",
      tag: "worlds",
      access: "public",
      params: WorldParams,
      query: z.object({ realm: z.string().max(200).optional() }),
      produces: "image/svg+xml",
      response: Text,
    },
    async ({ params, query, reply }) => {
      const { world } = await named(params.hash);
      const drawn = await pool.run({ kind: "map", world, realm: query.realm });
      if (drawn.kind !== "map")
        throw query.realm
          ? new ApiError(
              "world/unknown-name",
              "realm",
              { realm: query.realm, world: params.hash },
              { realm: query.realm, realms: Object.keys(world.realms) },
            )
          : new ApiError("world/unknown-name", "no-realm", {}, { realm: query.realm ?? null });
      return reply.type("image/svg+xml").send(drawn.svg);
    },
  );
}

/** Who may store worlds (docs/server.md "Uploads"). */
export interface UploadPolicy {
  /** The operator's token (`--upload-token`): its uploads count against no quota. */
  token?: string | undefined;
  /** Anyone may upload without a token (`--open-uploads`), each address within `perUploader`. */
  open: boolean;
  /** New worlds one uploader (a game's host token, or an address when open) may store. */
  perUploader: number;
  /** Bytes of worlds all uploaders but the operator may store together. */
  totalBytes: number;
  /** Refuse a world with any error (`serve --strict`), as every upload's `strict=true` does. */
  strict?: boolean;
}

export const DEFAULT_UPLOADS: UploadPolicy = { open: false, perUploader: 5, totalBytes: 1024 * 1024 * 1024 };

/** The uploader a request's token names: "operator", "host:<game>", or "address:<ip>" when uploads are open. */
async function uploaderOf(store: Store, policy: UploadPolicy, request: FastifyRequest): Promise<string> {
  const header = request.headers.authorization;
  const token = bearer(header);
  if (token === undefined) {
    if (header === undefined || header.trim() === "") {
      if (policy.open) return `address:${request.ip}`;
      throw new ApiError("auth/missing", "upload-token");
    }
    const why = missingToken(header);
    if (why === "malformed") throw new ApiError("auth/invalid", "malformed");
    throw new ApiError("auth/missing", why);
  }
  if (policy.token !== undefined && sameSecret(token, policy.token)) return "operator";
  if (token.startsWith("tfh_")) {
    const game = await store.gameByHostToken(hashToken(token));
    if (game) return `host:${game.id}`;
  }
  throw new ApiError("auth/invalid", "not-issued");
}

/** Compares secrets in constant time (their digests, so their lengths do not show either). */
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(hashToken(a), "hex"), Buffer.from(hashToken(b), "hex"));
}

function bytesText(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MiB` : `${Math.round(n / 1024)} KiB`;
}
