import { useEffect, useState } from "preact/hooks";
import { api, type Character, type Premade, type WorldSummary } from "../api.ts";

/**
 * A character for a game: one of the world's premades (with its description),
 * or a new one with a name, traits chosen per category and attribute points
 * spent within the world's limits. `only` restricts the choice to the party's
 * free characters of a game that has started.
 */
/** What a name may not hold (as the server says): control, direction and zero-width characters, line breaks. */
const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;
const NAME_RULE =
  "A name can hold letters, digits, spaces and punctuation: no line breaks and no invisible characters (they may come with pasted text; type the name again).";

export function CharacterPicker(props: {
  world: WorldSummary;
  taken: string[];
  only?: string[] | null;
  onChange: (character: Character | undefined) => void;
  /** The server's refusal of the name, in a player's words, shown under the field. */
  nameError?: string | undefined;
}) {
  const { world, taken, only } = props;
  const [premades, setPremades] = useState<Premade[]>([]);
  const [mode, setMode] = useState<"premade" | "custom">("premade");
  const [premade, setPremade] = useState<string>("");
  const [name, setName] = useState("");
  const [traits, setTraits] = useState<string[]>([]);
  const rules = world.attributes;
  const [attributes, setAttributes] = useState<Record<string, number>>({});

  useEffect(() => {
    void api.premades(world.hash).then((answer) => {
      setPremades(answer.premadeCharacters);
      const free = answer.premadeCharacters.find(
        (p) => !taken.includes(p.name) && (!only || only.includes(p.name)),
      );
      setPremade(free?.name ?? "");
      if (!free && !only) setMode("custom");
    });
    setAttributes(Object.fromEntries(rules.names.map((n) => [n, rules.starting])));
  }, [world.hash]);

  const spent = Object.values(attributes).reduce((sum, v) => sum + (v - rules.starting), 0);
  const left = rules.points - spent;

  useEffect(() => {
    if (only) {
      props.onChange(premade && only.includes(premade) ? { name: premade } : undefined);
      return;
    }
    if (mode === "premade") props.onChange(premade ? { premade } : undefined);
    else {
      const trimmed = name.trim();
      if (UNSHOWN.test(trimmed)) {
        props.onChange(undefined);
        return;
      }
      props.onChange(
        trimmed && left >= 0 && !taken.includes(trimmed) ? { name: trimmed, traits, attributes } : undefined,
      );
    }
  }, [mode, premade, name, traits, attributes, only?.join("\n")]);

  if (only) {
    return (
      <fieldset>
        <legend>Your character</legend>
        {only.length === 0 ? (
          <p>
            Every character of this party is already played. If one of them is yours on a new device, ask the
            host for a seat link, or to free your seat.
          </p>
        ) : null}
        {only.map((n) => (
          <label class="choice" key={n}>
            <input type="radio" name="claim" checked={premade === n} onChange={() => setPremade(n)} />
            <span>{n}</span>
          </label>
        ))}
      </fieldset>
    );
  }

  return (
    <fieldset>
      <legend>Your character</legend>
      <div class="segmented" role="radiogroup" aria-label="Kind of character">
        <label>
          <input type="radio" name="mode" checked={mode === "premade"} onChange={() => setMode("premade")} />A
          ready-made character
        </label>
        <label>
          <input type="radio" name="mode" checked={mode === "custom"} onChange={() => setMode("custom")} />
          Make your own
        </label>
      </div>
      {mode === "premade" ? (
        <div class="choices">
          {premades.map((p) => {
            const used = taken.includes(p.name);
            return (
              <label class={`choice card${used ? " used" : ""}`} key={p.name}>
                <input
                  type="radio"
                  name="premade"
                  value={p.name}
                  disabled={used}
                  checked={premade === p.name}
                  onChange={() => setPremade(p.name)}
                />
                <span>
                  <strong>{p.name}</strong>
                  {used ? " (already played)" : ""}
                  <span class="muted block">{p.description}</span>
                  <span class="muted block small">
                    {p.traits.join(", ")}
                    {p.traits.length > 0 ? " · " : ""}
                    {Object.entries(p.attributes)
                      .map(([k, v]) => `${k} ${v}`)
                      .join(", ")}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
      ) : (
        <div class="custom">
          <label class="field">
            <span>Name</span>
            <input
              value={name}
              maxLength={200}
              autoComplete="off"
              onInput={(e) => setName((e.target as HTMLInputElement).value)}
              aria-invalid={taken.includes(name.trim()) || UNSHOWN.test(name) || Boolean(props.nameError)}
              aria-describedby="name-problem"
            />
          </label>
          <p class="error" id="name-problem" aria-live="polite">
            {taken.includes(name.trim())
              ? "This name is already played in this game."
              : UNSHOWN.test(name)
                ? NAME_RULE
                : (props.nameError ?? "")}
          </p>
          {world.traitCategories.map((category) => {
            const chosen = traits.filter((t) => category.traits.some((c) => c.name === t));
            return (
              <fieldset key={category.name} class="traits">
                <legend>
                  {category.name} <span class="muted small">(up to {category.maxSelections})</span>
                </legend>
                {category.traits.map((trait) => {
                  const on = traits.includes(trait.name);
                  return (
                    <label class="choice" key={trait.name}>
                      <input
                        type="checkbox"
                        checked={on}
                        disabled={!on && chosen.length >= category.maxSelections}
                        onChange={() =>
                          setTraits(on ? traits.filter((t) => t !== trait.name) : [...traits, trait.name])
                        }
                      />
                      <span>
                        {trait.name}
                        {trait.description ? (
                          <span class="muted block small">{trait.description}</span>
                        ) : null}
                      </span>
                    </label>
                  );
                })}
              </fieldset>
            );
          })}
          <fieldset class="attributes">
            <legend>
              Attributes{" "}
              <span class="muted small" aria-live="polite">
                ({left} of {rules.points} points left, at most {rules.max} each)
              </span>
            </legend>
            {rules.names.map((attribute) => (
              <label class="field inline" key={attribute}>
                <span>{attribute}</span>
                <input
                  type="number"
                  min={rules.starting}
                  max={Math.min(rules.max, (attributes[attribute] ?? rules.starting) + Math.max(left, 0))}
                  value={attributes[attribute] ?? rules.starting}
                  onInput={(e) => {
                    const value = Number((e.target as HTMLInputElement).value);
                    if (Number.isInteger(value))
                      setAttributes({
                        ...attributes,
                        [attribute]: Math.max(rules.starting, Math.min(rules.max, value)),
                      });
                  }}
                />
              </label>
            ))}
            {left < 0 ? <p class="error">Too many points spent: lower an attribute.</p> : null}
          </fieldset>
        </div>
      )}
    </fieldset>
  );
}
