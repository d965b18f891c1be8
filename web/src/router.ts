import { useEffect, useState } from "preact/hooks";

/** The pages, as hash routes: the server serves one index.html and the links survive a reload. */
export type Route =
  | { page: "start" }
  | { page: "join"; invite: string; name: string | undefined }
  | { page: "game"; id: string }
  | { page: "seat"; id: string; token: string }
  | { page: "missing"; hash: string };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, "");
  const join = /^\/join\/([^/]+)(?:\/(.+))?$/.exec(path);
  if (join) return { page: "join", invite: decode(join[1]!), name: join[2] ? decode(join[2]) : undefined };
  const seat = /^\/seat\/([0-9a-f]{32})\/([^/]+)$/.exec(path);
  if (seat) return { page: "seat", id: seat[1]!, token: decode(seat[2]!) };
  const game = /^\/game\/([0-9a-f]{32})$/.exec(path);
  if (game) return { page: "game", id: game[1]! };
  if (path === "" || path === "/") return { page: "start" };
  return { page: "missing", hash: path };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", update);
    return () => removeEventListener("hashchange", update);
  }, []);
  return route;
}

export function go(hash: string): void {
  location.hash = hash;
}
