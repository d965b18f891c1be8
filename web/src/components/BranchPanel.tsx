import { useEffect, useState } from "preact/hooks";
import {
  api,
  type Branch,
  type BranchesView,
  type DiffView,
  type GameView,
  type WorldChange,
} from "../api.ts";
import { type Access, controlLabel } from "../controls.ts";
import { playerMessage } from "../messages.ts";
import { askedVote } from "./StoryControls.tsx";

/** A value of the world's storage, short and as text (JSX escapes it). */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function place(p: { region: string; location: string; area: string }): string {
  return [p.region, p.location, p.area].filter((part) => part !== "").join(" › ");
}

/** Whether the party knows an entity (a flag of the world; null: as the world starts). */
function known(value: boolean | null): string {
  return value === null ? "as the world starts" : value ? "known" : "unknown";
}

/** Where a branch leaves the current one: its own turns start after the shared turn `split`. */
function splitWords(split: number | null | undefined, tick: number): string {
  if (split === null || split === undefined) return "";
  return split >= tick ? ` · shares every turn` : ` · its own from turn ${split + 1}`;
}

/**
 * Where a branch parts from the branches listed alike (the server's `parting`): the turn and a few
 * words of its action or story there, a retry's draw, or that it is a copy of one story.
 */
export function partingWords(p: NonNullable<Branch["parting"]>): string {
  const copy = p.copy === undefined ? "" : ` (${p.copy} of ${p.copies})`;
  const others =
    p.copies === undefined || p.copies <= 2 ? "another branch" : `${p.copies - 1} other branches`;
  if (p.by === "copy" || p.turn === null) return `the same story as ${others}${copy}`;
  if (p.by === "end") return `stops at turn ${p.turn} where the others go on${copy}`;
  if (p.by === "draw") return `parts at turn ${p.turn}: draw ${p.draw + 1}${copy}`;
  const draw = p.draw > 0 ? `, draw ${p.draw + 1}` : "";
  return `parts at turn ${p.turn}${draw}: ${p.by === "action" ? "typed" : "told"} “${p.text}”${copy}`;
}

function fired(tick: number | null): string {
  return tick === null ? "not fired" : `fired on turn ${tick}`;
}

/** One change of a world diff as a sentence (the current branch's value first). */
export function changeWords(change: WorldChange): string {
  switch (change.kind) {
    case "position":
      return `The party is at ${place(change.after)} instead of ${place(change.before)}.`;
    case "party":
      return `${change.member} ${change.change === "joined" ? "is in the party" : "is not in the party"}.`;
    case "quest":
      return `Quest ${change.quest}: ${change.after} instead of ${change.before}.`;
    case "objective":
      return `Quest ${change.quest}, objective ${change.objective}: ${change.after} instead of ${change.before}.`;
    case "event":
      return `Narrative event ${change.event}: ${change.after} instead of ${change.before}.`;
    case "flag":
      return `${change.entity}: ${known(change.after)} instead of ${known(change.before)}.`;
    case "storage":
      return `Storage ${change.key}: ${shown(change.after)} instead of ${shown(change.before)}.`;
    case "trait":
      return `${change.member} ${change.change === "gained" ? "has" : "no longer has"} the trait ${change.trait}.`;
    case "item":
      return `${change.member} carries ${change.after} × ${change.item} instead of ${change.before}.`;
    case "trigger":
      // A consumed trigger's value is the turn it fired on (src/host/world-diff.ts), not a count.
      return `Trigger ${change.trigger}: ${fired(change.after)} instead of ${fired(change.before)}.`;
  }
}

/** The headings of a diff's sections, in the order the server lists the kinds. */
const SECTIONS: [WorldChange["kind"][], string][] = [
  [["position", "party"], "Place and party"],
  [["quest", "objective"], "Quests and objectives"],
  [["event"], "Narrative events"],
  [["flag"], "Flags"],
  [["storage"], "Storage"],
  [["trait", "item"], "Traits and items"],
  [["trigger"], "Triggers consumed"],
];

/**
 * The game's history (issue 33), in the host drawer and on a player's page: the game's branches
 * (title, turns, the current one) with a Switch button each, a rewind to any turn of the current
 * branch, and what differs in the world between the current branch and another, as lists of changes.
 * The buttons follow the game's rules (`rewind`, `branch`: apply, ask the party, or not shown); the
 * list and the comparison are for everyone at the table (a player's shows what the party sees).
 */
export function BranchPanel(props: {
  game: GameView;
  /** The token that reads the list and the diff (the host's, or the player's). */
  token: string;
  /** Who may rewind and with which token (default: at once, with `token`). */
  rewind?: Access;
  /** Who may switch, name and delete branches (default: at once, with `token`). */
  branch?: Access;
  /** Bumped by the branch events (a name, a deletion, from this page or another): read the list again. */
  edits?: number;
  onChanged: () => void;
}) {
  const { game, token } = props;
  const rewindAccess = props.rewind ?? { permission: "apply", token };
  const branchAccess = props.branch ?? { permission: "apply", token };
  const mayBranch = branchAccess.permission !== "denied";
  const [view, setView] = useState<BranchesView | undefined>();
  const [diff, setDiff] = useState<{ title: string; view: DiffView } | undefined>();
  const [turn, setTurn] = useState("");
  const [message, setMessage] = useState("");
  /** The branch being renamed (its tip) and the name typed so far. */
  const [renaming, setRenaming] = useState<{ tip: number; name: string } | undefined>();
  /** The branch whose deletion waits for a confirmation (its tip). */
  const [deleting, setDeleting] = useState<number | undefined>();

  const read = () =>
    api
      .listBranches(game.id, token)
      .then(setView)
      .catch((e) => setMessage(playerMessage(e, "read").text));
  // Read again whenever the game moves (a turn, a retry, an undo, a switch).
  useEffect(() => {
    if (game.status !== "lobby") void read();
  }, [game.seq, game.tick, game.status, props.edits]);

  const act = async (done: string, call: () => Promise<unknown>) => {
    setMessage("");
    try {
      // Under a vote (the game's rules), the request asks the party (the host's too).
      const answer = await call();
      setMessage(askedVote(answer) ? "You asked the party: the vote is at the top of the page." : done);
      setDiff(undefined);
      props.onChanged();
      await read();
    } catch (e) {
      setMessage(playerMessage(e, "control").text);
    }
  };

  if (game.status === "lobby") return <p class="muted">The story has not begun yet.</p>;
  const branches = view?.branches ?? [];
  const head = view?.head ?? null;
  return (
    <div class="branches">
      {rewindAccess.permission === "denied" ? null : (
        <form
          class="filters"
          onSubmit={(e) => {
            e.preventDefault();
            const tick = Number(turn);
            if (turn.trim() === "" || !Number.isInteger(tick) || tick < 0) {
              setMessage("Rewind: give the number of a turn of this branch (0 is the opening).");
              return;
            }
            void act(`Rewound to turn ${tick}: the next turn starts a new branch.`, () =>
              api.rewindGame(game.id, rewindAccess.token, tick),
            );
          }}
        >
          <label class="field inline">
            <span>Rewind to turn</span>
            <input
              type="number"
              min={0}
              max={game.tick}
              value={turn}
              onInput={(e) => setTurn((e.target as HTMLInputElement).value)}
            />
          </label>
          <button type="submit">{controlLabel(rewindAccess.permission, "Rewind")}</button>
        </form>
      )}
      <p role="status" class="status-line">
        {message}
      </p>
      {view === undefined ? (
        <p class="muted">Reading the branches…</p>
      ) : (
        <ul class="branch-list" aria-label="Branches">
          {branches.map((b) => (
            <li key={b.tip} class={b.current ? "current" : undefined}>
              <span class="who" id={`branch-${b.tip}`}>
                {b.name ?? b.title}
              </span>{" "}
              <span class="muted small">
                {b.name !== null && b.title !== "" ? `${b.title} · ` : ""}
                {b.turns} {b.turns === 1 ? "turn" : "turns"}
                {b.current ? " · current" : splitWords(b.splitTick, b.tick)}
                {b.parting ? <span class="parting"> · {partingWords(b.parting)}</span> : null}
              </span>
              {renaming?.tip === b.tip ? (
                <form
                  class="filters"
                  onSubmit={(e) => {
                    e.preventDefault();
                    const name = renaming.name;
                    setRenaming(undefined);
                    void act(
                      name.trim() === ""
                        ? "The branch's name was taken away."
                        : `Named the branch “${name.trim()}”.`,
                      () => api.nameBranch(game.id, branchAccess.token, b.tip, name),
                    );
                  }}
                >
                  <label class="field inline">
                    <span>Name of the branch</span>
                    <input
                      type="text"
                      maxLength={60}
                      value={renaming.name}
                      onInput={(e) => setRenaming({ tip: b.tip, name: (e.target as HTMLInputElement).value })}
                    />
                  </label>
                  <button type="submit">{controlLabel(branchAccess.permission, "Save name")}</button>
                  <button type="button" onClick={() => setRenaming(undefined)}>
                    Cancel
                  </button>
                </form>
              ) : null}
              {deleting === b.tip ? (
                <fieldset class="buttons">
                  <legend class="visually-hidden">Confirm the deletion</legend>
                  <span>Delete this branch? Its own turns are lost for good.</span>{" "}
                  <button
                    type="button"
                    aria-describedby={`branch-${b.tip}`}
                    onClick={() => {
                      setDeleting(undefined);
                      void act(`Deleted “${b.name ?? b.title}”.`, () =>
                        api.deleteBranch(game.id, branchAccess.token, b.tip),
                      );
                    }}
                  >
                    {branchAccess.permission === "vote" ? "Yes, ask the party" : "Yes, delete it"}
                  </button>
                  <button type="button" onClick={() => setDeleting(undefined)}>
                    Keep it
                  </button>
                </fieldset>
              ) : null}
              {mayBranch ? (
                <div class="buttons">
                  <button
                    type="button"
                    aria-describedby={`branch-${b.tip}`}
                    onClick={() => {
                      setDeleting(undefined);
                      setRenaming({ tip: b.tip, name: b.name ?? "" });
                    }}
                  >
                    {controlLabel(branchAccess.permission, "Rename")}
                  </button>
                  {b.current ? null : (
                    <button
                      type="button"
                      aria-describedby={`branch-${b.tip}`}
                      onClick={() => {
                        setRenaming(undefined);
                        setDeleting(b.tip);
                      }}
                    >
                      {controlLabel(branchAccess.permission, "Delete")}
                    </button>
                  )}
                </div>
              ) : null}
              {b.current ? null : (
                <div class="buttons">
                  {mayBranch ? (
                    <button
                      type="button"
                      aria-describedby={`branch-${b.tip}`}
                      onClick={() =>
                        act(`Switched to “${b.name ?? b.title}”.`, () =>
                          api.switchBranch(game.id, branchAccess.token, b.tip),
                        )
                      }
                    >
                      {controlLabel(branchAccess.permission, "Switch")}
                    </button>
                  ) : null}
                  <button
                    type="button"
                    aria-describedby={`branch-${b.tip}`}
                    disabled={head === null}
                    onClick={() =>
                      api
                        .diffStates(game.id, token, b.tip, head ?? 0)
                        .then((d) => setDiff({ title: b.name ?? b.title, view: d }))
                        .catch((e) => setMessage(playerMessage(e, "read").text))
                    }
                  >
                    Compare
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {view?.more ? <p class="muted small">{view.more} more branches are not listed.</p> : null}
      {diff ? <Diff title={diff.title} view={diff.view} /> : null}
    </div>
  );
}

function Diff(props: { title: string; view: DiffView }) {
  const { view } = props;
  return (
    <section class="diff" aria-label={`What the current branch changed from “${props.title}”`}>
      <h4>
        The current branch (turn {view.to}) compared with “{props.title}” (turn {view.from})
      </h4>
      {view.scope === "party" ? (
        <p class="muted small">
          The place and the party, quests, traits and items: narrative events, flags, storage and the triggers
          that fired are the host's to see.
        </p>
      ) : null}
      {view.changes.length === 0 ? (
        <p>{view.scope === "party" ? "Nothing the party sees differs." : "Nothing differs in the world."}</p>
      ) : (
        SECTIONS.map(([kinds, heading]) => {
          const changes = view.changes.filter((c) => kinds.includes(c.kind));
          if (changes.length === 0) return null;
          return (
            <div key={heading}>
              <h5>{heading}</h5>
              <ul>
                {changes.map((c, i) => (
                  <li key={i}>{changeWords(c)}</li>
                ))}
              </ul>
            </div>
          );
        })
      )}
    </section>
  );
}

/**
 * A player's page's branches (issue 33): folded until opened (then read, and read again as the game
 * moves), so that a party's pages do not each read the tree at every turn for a list nobody opened.
 */
export function PartyBranches(props: Parameters<typeof BranchPanel>[0]) {
  const [open, setOpen] = useState(false);
  return (
    <details
      class="panel party-branches"
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>
        <h2 id="branches-title">Branches</h2>
      </summary>
      {open ? <BranchPanel {...props} /> : null}
    </details>
  );
}
