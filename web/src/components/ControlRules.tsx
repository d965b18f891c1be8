import { useEffect, useState } from "preact/hooks";
import { api, type ControlRule, type GameView, type ControlRules as Rules } from "../api.ts";
import { STORY_CONTROLS, type StoryControl } from "../controls.ts";
import { playerMessage } from "../messages.ts";

const NAMES: Record<StoryControl, string> = {
  retry: "Retry the last turn",
  undo: "Undo the last turn",
  alter: "Alter the last narration",
  rewind: "Rewind to an earlier turn",
  branch: "Switch, rename and delete branches",
};

const RULES: [ControlRule, string][] = [
  ["host", "The host"],
  ["anyone", "Any player"],
  ["vote", "A vote of the party"],
];

/**
 * The host's setting of who may use each story control (issue 33): the host, any active player, or
 * a vote of the active players (a majority within the vote's time, else nothing happens). Saved for
 * everyone at once; every page follows (`controls-changed`).
 */
export function ControlRules(props: { game: GameView; token: string }) {
  const { game } = props;
  const [rules, setRules] = useState<Rules | undefined>(game.controls);
  const [message, setMessage] = useState("");
  const [saving, setSaving] = useState(false);
  // The game's rules as they change (another page of the host, a restart): the form follows them.
  useEffect(() => setRules(game.controls), [JSON.stringify(game.controls)]);
  if (!rules) return <p class="muted">This server decides the story controls by the host alone.</p>;
  return (
    <form
      class="control-rules"
      onSubmit={async (e) => {
        e.preventDefault();
        setSaving(true);
        setMessage("");
        try {
          const saved = await api.setControls(game.id, props.token, rules);
          setRules(saved.controls);
          setMessage("Saved: every player's page follows the new rules.");
        } catch (error) {
          setMessage(playerMessage(error, "control").text);
        } finally {
          setSaving(false);
        }
      }}
    >
      <fieldset>
        <legend>Who may use each story control</legend>
        {STORY_CONTROLS.map((control) => (
          <label class="field inline" key={control}>
            <span>{NAMES[control]}</span>
            <select
              value={rules[control]}
              onChange={(e) =>
                setRules({ ...rules, [control]: (e.target as HTMLSelectElement).value as ControlRule })
              }
            >
              {RULES.map(([rule, words]) => (
                <option key={rule} value={rule}>
                  {words}
                </option>
              ))}
            </select>
          </label>
        ))}
        <label class="field inline">
          <span>A vote stays open for (seconds, 10 to 600)</span>
          <input
            type="number"
            min={10}
            max={600}
            value={rules.voteSeconds}
            onInput={(e) => {
              const seconds = Number((e.target as HTMLInputElement).value);
              if (Number.isInteger(seconds)) setRules({ ...rules, voteSeconds: seconds });
            }}
          />
        </label>
      </fieldset>
      <button type="submit" disabled={saving}>
        Save the rules
      </button>
      <p role="status" class="status-line">
        {message}
      </p>
    </form>
  );
}
