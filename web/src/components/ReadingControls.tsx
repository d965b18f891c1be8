import { useState } from "preact/hooks";
import { type Reading, SIZES, saveReading } from "../reading.ts";

/**
 * The reader's controls under the game's title: theme, text size, and the
 * "your turn" signals. A notification is asked of the browser only when the
 * player ticks it, never before.
 */
export function ReadingControls(props: { reading: Reading; onChange: (reading: Reading) => void }) {
  const { reading } = props;
  const [note, setNote] = useState("");
  const change = (next: Reading) => {
    saveReading(next);
    props.onChange(next);
  };
  const askNotify = async (on: boolean) => {
    setNote("");
    if (!on) return change({ ...reading, notify: false });
    if (!("Notification" in window)) {
      setNote("This browser cannot show notifications.");
      return;
    }
    const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    if (answer === "granted") change({ ...reading, notify: true });
    else
      setNote(
        "The browser did not allow notifications: allow them in its settings for this site, then tick again.",
      );
  };
  return (
    <details class="reading">
      <summary>Reading and signals</summary>
      <div class="reading-body">
        <label class="field inline">
          <span>Theme</span>
          <select
            value={reading.theme}
            onChange={(e) =>
              change({ ...reading, theme: (e.target as HTMLSelectElement).value as Reading["theme"] })
            }
          >
            <option value="system">as the system</option>
            <option value="light">light</option>
            <option value="dark">dark</option>
          </select>
        </label>
        <fieldset class="text-size">
          <legend class="visually-hidden">Text size</legend>
          <span aria-hidden="true">Text</span>
          <button
            type="button"
            aria-label="Smaller text"
            disabled={reading.size === 0}
            onClick={() => change({ ...reading, size: reading.size - 1 })}
          >
            A−
          </button>
          <output aria-live="polite">{SIZES[reading.size]}</output>
          <button
            type="button"
            aria-label="Larger text"
            disabled={reading.size === SIZES.length - 1}
            onClick={() => change({ ...reading, size: reading.size + 1 })}
          >
            A+
          </button>
        </fieldset>
        <label class="choice">
          <input
            type="checkbox"
            checked={reading.sound}
            onChange={(e) => change({ ...reading, sound: (e.target as HTMLInputElement).checked })}
          />
          A sound when it is my turn
        </label>
        <label class="choice">
          <input
            type="checkbox"
            checked={reading.notify}
            onChange={(e) => void askNotify((e.target as HTMLInputElement).checked)}
          />
          A notification when it is my turn and this tab is hidden
        </label>
        {note ? <p class="error small">{note}</p> : null}
      </div>
    </details>
  );
}
