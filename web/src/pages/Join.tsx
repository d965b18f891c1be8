import { useEffect, useState } from "preact/hooks";
import { api, type Character, type InviteView, type WorldSummary } from "../api.ts";
import { CharacterPicker } from "../components/CharacterPicker.tsx";
import { type PlayerMessage, playerMessage } from "../messages.ts";
import { go } from "../router.ts";
import { loadSeat, saveSeat } from "../session.ts";

/** An invite link: choose a character (or one of the party's free ones once it has started) and join. */
export function JoinPage(props: { invite: string; name: string | undefined }) {
  const [invite, setInvite] = useState<InviteView | undefined>();
  const [world, setWorld] = useState<WorldSummary | undefined>();
  const [character, setCharacter] = useState<Character | undefined>();
  const [error, setError] = useState<PlayerMessage | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void api
      .invite(props.invite)
      .then(async (found) => {
        const seat = loadSeat(found.game);
        if (seat?.playerToken) {
          go(`/game/${found.game}`);
          return;
        }
        setInvite(found);
        setWorld(await api.world(found.world));
      })
      .catch((e: unknown) => setError(playerMessage(e, "read")));
  }, [props.invite]);

  const join = async (event: Event) => {
    event.preventDefault();
    if (!invite || !character) return;
    setBusy(true);
    setError(null);
    try {
      const seat = await api.joinGame({ invite: props.invite, character });
      saveSeat({
        game: seat.gameId,
        playerToken: seat.token,
        playerName: seat.name,
        // Kept so that a page whose seat the host frees can offer to join again.
        invite: props.invite,
        ...(props.name ? { name: props.name } : {}),
      });
      go(`/game/${seat.gameId}`);
    } catch (e) {
      setError(playerMessage(e, "join"));
      setBusy(false);
    }
  };

  const title = props.name ?? (world ? `${world.name} game` : "a game");
  return (
    <main id="main" class="page narrow">
      <h1>Join {title}</h1>
      {invite && world ? (
        <form onSubmit={join}>
          <p>
            {invite.players.length > 0
              ? `Playing: ${invite.players.join(", ")}. `
              : "Nobody has joined yet. "}
            {invite.status === "lobby" ? "The game has not started yet." : `The game is ${invite.status}.`}
          </p>
          {invite.storyStart ? (
            <p class="muted">
              Story start: <strong>{invite.storyStart}</strong>
            </p>
          ) : null}
          <p class="background">{world.background}</p>
          <CharacterPicker
            world={world}
            taken={invite.players}
            only={invite.claimable}
            onChange={setCharacter}
            nameError={error?.field === "name" ? error.text : undefined}
          />
          {error && error.field !== "name" ? (
            <p class="error" role="alert">
              {error.text}
            </p>
          ) : null}
          <button type="submit" class="primary" disabled={!character || busy}>
            {busy ? "Joining…" : "Join the game"}
          </button>
        </form>
      ) : error ? (
        <p class="error" role="alert">
          {error.text} <a href="#/">Start a game of your own</a>
        </p>
      ) : (
        <p role="status">Opening the invite…</p>
      )}
    </main>
  );
}
