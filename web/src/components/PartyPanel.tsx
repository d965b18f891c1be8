import type { Member } from "../api.ts";

function Entries(props: { label: string; values: Record<string, number> }) {
  const entries = Object.entries(props.values);
  if (entries.length === 0) return null;
  return (
    <>
      <h4>{props.label}</h4>
      <dl class="pairs">
        {entries.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

/** Each character of the party: resources as bars, attributes, skills, traits and inventory. */
export function PartyPanel(props: { party: Member[]; you: string | undefined }) {
  return (
    <section class="panel party" aria-labelledby="party-title">
      <h2 id="party-title">The party</h2>
      {props.party.map((member) => (
        <article class="member" key={member.name} aria-label={member.name}>
          <h3>
            {member.name}
            {member.name === props.you ? <span class="badge">you</span> : null}
            <span class="muted small">
              {" "}
              {member.kind === "npc" ? "companion · " : ""}level {member.level}
            </span>
          </h3>
          {Object.entries(member.resources).map(([name, value]) => (
            <div class="resource" key={name}>
              <label>
                <span class="resource-name">{name}</span>
                <span class="resource-value">
                  {value.current} / {value.max}
                </span>
                <meter
                  min={0}
                  max={Math.max(value.max, 1)}
                  value={value.current}
                  low={value.max * 0.34}
                  high={value.max * 0.67}
                  optimum={value.max}
                />
              </label>
            </div>
          ))}
          <details>
            <summary>Attributes, skills, traits and items</summary>
            <Entries label="Attributes" values={member.attributes} />
            <Entries label="Skills" values={member.skills} />
            {member.traits.length > 0 ? (
              <>
                <h4>Traits</h4>
                <p>{member.traits.join(", ")}</p>
              </>
            ) : null}
            {member.abilities.length > 0 ? (
              <>
                <h4>Abilities</h4>
                <p>{member.abilities.join(", ")}</p>
              </>
            ) : null}
            <h4>Inventory</h4>
            {Object.keys(member.items).length === 0 ? (
              <p class="muted">Nothing carried.</p>
            ) : (
              <ul class="items">
                {Object.entries(member.items).map(([item, count]) => (
                  <li key={item}>
                    {item}
                    {count > 1 ? ` ×${count}` : ""}
                  </li>
                ))}
              </ul>
            )}
          </details>
        </article>
      ))}
    </section>
  );
}
