import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { buildRealmMap, chooseRealm } from "../../author/map/model.ts";
import { realmMapSvg } from "../../author/map/svg.ts";
import { ApiError } from "../errors.ts";
import { route } from "../route.ts";
import { WorldParams, WorldUploadQuery } from "../schemas.ts";
import type { Store } from "../store/store.ts";
import { premades, storyStarts, worldSummary } from "../views.ts";
import { bundleExampleWorld, checkUpload, type WorldCache, worldHashOf } from "../worlds.ts";

/** One world of GET /worlds; the example world is `bundled`. */
export const WorldListing = z.object({
  hash: z.string(),
  name: z.string(),
  bytes: z.number(),
  createdAt: z.number(),
  bundled: z.boolean(),
});

/** What a custom character may set: the world's attribute names and its point-buy limits. */
export const AttributeRules = z.object({
  names: z.array(z.string()),
  starting: z.number(),
  points: z.number(),
  max: z.number(),
});

/** Worlds: upload (checked, content-addressed), list, and what players may read of one. */
export function worldRoutes(
  app: FastifyInstance,
  store: Store,
  worlds: WorldCache,
  limits: { worldLimit: number },
) {
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
        "Upload a world file (the body is the file). A world with errors is refused with its check report.",
      tag: "worlds",
      access: "public",
      query: WorldUploadQuery,
      bodyLimit: limits.worldLimit,
      status: 201,
      response: z.object({ hash: z.string(), name: z.string(), created: z.boolean(), report: z.unknown() }),
    },
    async ({ query, request, reply }) => {
      const text = (request as { rawText?: string }).rawText;
      if (text === undefined || text.trim() === "") throw new ApiError("request/invalid", "no-world");
      const name = query.name ?? "world";
      const { world, report } = checkUpload(text, name);
      const hash = worldHashOf(text);
      const created = await store.putWorld({
        hash,
        name,
        text,
        bytes: Buffer.byteLength(text),
        warnings: JSON.stringify(report.diagnostics),
        created_at: Date.now(),
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
    },
    async ({ params, query, reply }) => {
      const { world } = await named(params.hash);
      const choice = chooseRealm(world, query.realm);
      if (!choice.ok)
        throw query.realm
          ? new ApiError(
              "world/unknown-name",
              "realm",
              { realm: query.realm, world: params.hash },
              { realm: query.realm, realms: Object.keys(world.realms) },
            )
          : new ApiError("world/unknown-name", "no-realm", {}, { realm: query.realm ?? null });
      reply.type("image/svg+xml").send(realmMapSvg(buildRealmMap(world, choice.realm)));
    },
  );
}
