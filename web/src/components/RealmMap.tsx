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
  const where = props.state.position;
  useEffect(() => {
    let made: string | undefined;
    let cancelled = false;
    api
      .map(props.game, props.token)
      .then((blob) => {
        if (cancelled) return;
        made = URL.createObjectURL(blob);
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
                const at = box.current;
                // The middle of the drawing first; the player scrolls from there.
                if (at) {
                  at.scrollLeft = (image.clientWidth - at.clientWidth) / 2;
                  at.scrollTop = (image.clientHeight - at.clientHeight) / 2;
                }
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
