import { useEffect, useRef, useState } from "preact/hooks";
import { api, type PartyState } from "../api.ts";

/**
 * The realm map where the party stands (the drawing of `taleforge map`), in an
 * <img> from a blob: the SVG is never put in the page, so nothing in a world's
 * names can run. Redrawn when the party moves or comes to know a place.
 */
export function RealmMap(props: { game: string; token: string; state: PartyState; version: string }) {
  const [url, setUrl] = useState<string | undefined>();
  const [error, setError] = useState("");
  // Readable: the drawing at its own size (its labels as `taleforge map` sets them), in a box that
  // scrolls; whole: fitted to the column (a glance at the shape, labels too small to read).
  const [whole, setWhole] = useState(false);
  const box = useRef<HTMLElement>(null);
  // Where the party's marker is in the drawing (0 to 1 across and down), to centre the box on it.
  const [focus, setFocus] = useState<ReturnType<typeof partyPoint>>(null);
  const where = props.state.position;
  useEffect(() => {
    let made: string | undefined;
    let cancelled = false;
    api
      .map(props.game, props.token)
      .then(async (blob) => {
        const point = partyPoint(await blob.text());
        if (cancelled) return;
        made = URL.createObjectURL(blob);
        setFocus(point);
        setUrl(made);
        setError("");
      })
      .catch((e: Error) => setError(e.message));
    return () => {
      cancelled = true;
      if (made) setTimeout(() => URL.revokeObjectURL(made!), 1000);
    };
  }, [props.game, props.version]);
  const place = [where.area, where.location, where.region].filter(Boolean).join(", ");
  // The party and its region's cell (its name included) in the box, the drawing's middle without a
  // party; the player scrolls from there. Again when the map comes back from "Whole map".
  const centre = () => {
    const at = box.current;
    const image = at?.querySelector("img");
    if (!at || !image || whole) return;
    const f = focus ?? { x: 0.5, y: 0.5 };
    at.scrollLeft = scrollTo(image.clientWidth, at.clientWidth, f.x, f.cell?.x);
    at.scrollTop = scrollTo(image.clientHeight, at.clientHeight, f.y, f.cell?.y);
  };
  useEffect(centre, [whole]);
  // And when the box changes size (the text size, a phone turned): the party stays in it.
  const latest = useRef(centre);
  latest.current = centre;
  useEffect(() => {
    const at = box.current;
    if (!at || typeof ResizeObserver === "undefined") return;
    const watch = new ResizeObserver(() => latest.current());
    watch.observe(at);
    return () => watch.disconnect();
  }, [url]);
  return (
    <section class="panel map" aria-labelledby="map-title">
      <h2 id="map-title">Map of {where.realm}</h2>
      <p>
        The party is at <strong class="position">{place}</strong>.
      </p>
      {url ? (
        <>
          <section
            class={`map-box${whole ? " whole" : ""}`}
            ref={box}
            // Scrollable with the keyboard too (arrow keys), with a name to say what it is.
            tabIndex={whole ? undefined : 0}
            aria-label={`Map of ${where.realm}, scrollable`}
          >
            <img
              src={url}
              alt={`Map of ${where.realm}: the party is at ${place}.`}
              data-tick={props.state.tick}
              onLoad={(e) => {
                const image = e.target as HTMLImageElement;
                // Drawn 30% larger than `taleforge map` sizes it for paper: its smallest labels
                // (the areas under a place's name) come to 12.5 px, readable on a screen. SVG stays sharp.
                // (A variable, not the width itself: "Whole map" fits it to the column again.)
                image.style.setProperty("--map-width", `${Math.round(image.naturalWidth * LABEL_SCALE)}px`);
                centre();
              }}
            />
          </section>
          <p class="map-tools">
            <button type="button" aria-pressed={whole} onClick={() => setWhole(!whole)}>
              {whole ? "Readable size" : "Whole map"}
            </button>{" "}
            <a href={url} target="_blank" rel="noopener" class="map-link">
              Open the map in a new tab
            </a>
          </p>
        </>
      ) : null}
      {error ? <p class="error">{error}</p> : null}
    </section>
  );
}

/** How much larger than its own size the map is shown in its box (see onLoad). */
const LABEL_SCALE = 1.3;

/** Where something is in the drawing, as fractions of its viewBox (0 to 1 across and down). */
interface Span {
  start: number;
  end: number;
}

/**
 * Where the party's marker (`<g class="party">`, a diamond path) and its region's cell are in the
 * drawing, as fractions of its viewBox; null without a marker. Read from the text: the SVG is never
 * put in the page.
 */
export function partyPoint(svg: string): { x: number; y: number; cell?: { x: Span; y: Span } } | null {
  const box = /viewBox="\s*([-\d.]+)[\s,]+([-\d.]+)[\s,]+([-\d.]+)[\s,]+([-\d.]+)\s*"/.exec(svg);
  const party = /<g class="party" data-region="([^"]{0,400})"[^>]*>[\s\S]*?<path d="([^"]{1,400})"/.exec(svg);
  if (!box || !party) return null;
  const [minX, minY, width, height] = box.slice(1, 5).map(Number) as [number, number, number, number];
  if (!(width > 0) || !(height > 0)) return null;
  const points = [...party[2]!.matchAll(/([-\d.]+),([-\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
  if (points.length === 0) return null;
  const x = points.reduce((sum, p) => sum + p[0]!, 0) / points.length;
  const y = points.reduce((sum, p) => sum + p[1]!, 0) / points.length;
  if (!Number.isFinite(x) || !Number.isFinite(y)) return null;
  const across = (v: number) => (v - minX) / width;
  const down = (v: number) => (v - minY) / height;
  // The region's cell: its group has the same data-region (escaped alike), then its <rect>.
  const at = svg.indexOf(`data-region="${party[1]}" data-x=`);
  const rect =
    at < 0
      ? null
      : /<rect x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" height="([\d.]+)"/.exec(svg.slice(at, at + 2000));
  const cell = rect
    ? (() => {
        const [rx, ry, rw, rh] = rect.slice(1, 5).map(Number) as [number, number, number, number];
        return {
          x: { start: across(rx), end: across(rx + rw) },
          y: { start: down(ry), end: down(ry + rh) },
        };
      })()
    : undefined;
  return { x: across(x), y: down(y), ...(cell ? { cell } : {}) };
}

/**
 * Where a box of `view` pixels scrolls along a drawing of `size` pixels: its region's cell centred
 * when the whole cell fits (every label of the party's region in view), else the party centred (its
 * place's name whole, half the box each side). The browser keeps it inside the drawing.
 */
export function scrollTo(size: number, view: number, point: number, cell?: Span): number {
  const p = point * size;
  if (cell && (cell.end - cell.start) * size <= view)
    return Math.max(0, ((cell.start + cell.end) / 2) * size - view / 2);
  return Math.max(0, p - view / 2);
}
