import { ApiFailure, api } from "./api.ts";
import { loadSeat, saveSeat } from "./session.ts";
import type { StreamEvent } from "./sse.ts";

/**
 * The host role moving to another player (issue 34 item 9), as a page sees it
 * in the game's events. A player handed the role takes it (the server answers
 * the new host token to that player only: anyone else's claim is refused), and
 * a page whose host token stopped working forgets it; so does a page whose seat
 * the host freed, its player token. Both are checked with
 * the server, never read from the event alone, so an old event replayed after
 * a reload changes nothing. `changed` says what happened, for the page to show.
 */
export async function followHostRole(
  game: string,
  event: StreamEvent,
  changed: (note: string) => void,
): Promise<void> {
  if (event.event === "seat-freed") return followFreedSeat(game, changed);
  if (event.event !== "host-offered" && event.event !== "host-changed") return;
  const seat = loadSeat(game);
  if (!seat) return;
  const { name } = event.data as { player: string; name: string };
  if (seat.hostToken) {
    try {
      await api.game(game, seat.hostToken);
    } catch (e) {
      if (e instanceof ApiFailure && e.status === 401) {
        saveSeat({ game, hostToken: undefined });
        changed(`You handed the host role to ${name}: the host tools are on their page now.`);
      }
    }
  }
  if (event.event === "host-offered" && seat.playerToken && !loadSeat(game)?.hostToken) {
    try {
      const { hostToken } = await api.claimHost(game, seat.playerToken);
      saveSeat({ game, hostToken });
      changed("You are the host now: the Host tools button opens your tools.");
    } catch {
      // Offered to another player, or already taken: nothing to do here.
    }
  }
}

/**
 * A seat the host freed: when it is this browser's (its player token no longer works), the token is
 * forgotten, so the invite link lets this browser join again (as the same character, if it is still
 * free).
 */
async function followFreedSeat(game: string, changed: (note: string) => void): Promise<void> {
  const seat = loadSeat(game);
  if (!seat?.playerToken) return;
  try {
    await api.game(game, seat.playerToken);
  } catch (e) {
    if (e instanceof ApiFailure && e.status === 401) {
      const note = "The host freed your seat: open the invite link again to take a character.";
      saveSeat({ game, playerToken: undefined, playerName: undefined, freed: note });
      changed(note);
    }
  }
}
