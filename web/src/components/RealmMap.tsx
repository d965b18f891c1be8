import { useEffect, useState } from "preact/hooks";
import { api, type PartyState } from "../api.ts";

/**
 * The realm map where the party stands (the drawing of `taleforge map`), in an
 * <img> from a blob: the SVG is never put in the page, so nothing in a world's
 * names can run. Redrawn when the party moves or comes to know a place.
 */
export function RealmMap(props: { game: string; token: string; state: PartyState; version: string }) {
  const [url, setUrl] = useState<string | undefined>();
  const [error, setError] = useState("");
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
        <a href={url} target="_blank" rel="noopener" class="map-link">
          <img
            src={url}
            alt={`Map of ${where.realm}: the party is at ${place}.`}
            data-tick={props.state.tick}
          />
        </a>
      ) : null}
      {error ? <p class="error">{error}</p> : null}
    </section>
  );
}
