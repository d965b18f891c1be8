/**
 * The tokens of the games this browser plays, kept in localStorage so that a
 * reload (or coming back later) returns to the game: the host token of the
 * games it created and the player token of the character it plays.
 */
export interface Seat {
  game: string;
  playerToken?: string;
  playerName?: string;
  hostToken?: string;
  invite?: string;
  /** The game's name, given by its host (kept in the browser and the invite link: the API has none). */
  name?: string;
  /** Why this browser no longer plays here (the host freed its seat): shown after a reload too. */
  freed?: string;
}

const KEY = (game: string) => `taleforge:seat:${game}`;

export function loadSeat(game: string): Seat | undefined {
  try {
    const text = localStorage.getItem(KEY(game));
    return text ? (JSON.parse(text) as Seat) : undefined;
  } catch {
    return undefined;
  }
}

export function saveSeat(seat: Seat): void {
  const merged = { ...loadSeat(seat.game), ...seat };
  // A new player token (joined again) ends what a freed seat said.
  if (seat.playerToken) delete merged.freed;
  localStorage.setItem(KEY(seat.game), JSON.stringify(merged));
}

/** The invite link to share: this page's address with the join route. */
export function inviteLink(invite: string, name?: string): string {
  const suffix = name ? `/${encodeURIComponent(name)}` : "";
  return `${location.origin}${location.pathname}#/join/${encodeURIComponent(invite)}${suffix}`;
}
