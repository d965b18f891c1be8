import { useEffect, useState } from "preact/hooks";
import {
  ApiFailure,
  api,
  type Character,
  type CheckReport,
  type WorldListing,
  type WorldSummary,
} from "../api.ts";
import { CharacterPicker } from "../components/CharacterPicker.tsx";
import { Diagnostics } from "../components/Diagnostics.tsx";
import { playerMessage } from "../messages.ts";
import { go } from "../router.ts";
import { saveSeat } from "../session.ts";

/** Start a game: a world (bundled or uploaded), a story start, a character and a name. */
export function StartPage() {
  const [worlds, setWorlds] = useState<WorldListing[]>([]);
  const [hash, setHash] = useState<string>("");
  const [world, setWorld] = useState<WorldSummary | undefined>();
  const [report, setReport] = useState<CheckReport | undefined>();
  // A world with an error the platform plays with (a quest no trigger starts) is uploaded with it.
  const [refused, setRefused] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [start, setStart] = useState("");
  const [character, setCharacter] = useState<Character | undefined>();
  const [gameName, setGameName] = useState("");
  const [narrator, setNarrator] = useState<"server" | "offline">("server");
  const [error, setError] = useState("");
  /** A refused upload, in a player's words, shown under the file input (not at the foot of the form). */
  const [uploadError, setUploadError] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void api
      .listWorlds()
      .then((answer) => {
        const sorted = [...answer.worlds].sort((a, b) => Number(b.bundled) - Number(a.bundled));
        setWorlds(sorted);
        if (sorted[0]) setHash(sorted[0].hash);
      })
      .catch((e: unknown) => setError(playerMessage(e, "read").text));
  }, []);

  useEffect(() => {
    if (!hash) return;
    setWorld(undefined);
    void api
      .world(hash)
      .then((summary) => {
        setWorld(summary);
        const first = summary.storyStarts[0]?.name ?? "";
        setStart(first);
        if (!gameName) setGameName(`${summary.name} game`);
      })
      .catch((e: unknown) => setError(playerMessage(e, "read").text));
  }, [hash]);

  const upload = async (file: File) => {
    setReport(undefined);
    setRefused(false);
    setError("");
    setUploadError("");
    if (file.size === 0) {
      setUploadError("This file is empty: choose the world's .json file.");
      return;
    }
    setUploading(true);
    try {
      const text = await file.text();
      const answer = await uploadWithToken(text, file.name.slice(0, 200), worlds);
      setReport(answer.report);
      const listed = await api.listWorlds();
      setWorlds([...listed.worlds].sort((a, b) => Number(b.bundled) - Number(a.bundled)));
      setHash(answer.hash);
    } catch (e) {
      if (e instanceof ApiFailure && e.code === "world/invalid") {
        setReport(e.details.report as CheckReport);
        setRefused(true);
      } else setUploadError(playerMessage(e, "upload").text);
    } finally {
      setUploading(false);
    }
  };

  const create = async (event: Event) => {
    event.preventDefault();
    if (!world || !character) return;
    setBusy(true);
    setError("");
    try {
      const game = await api.createGame({
        world: world.hash,
        ...(start ? { storyStart: start } : {}),
        narrator,
      });
      saveSeat({ game: game.id, hostToken: game.hostToken, invite: game.invite, name: gameName.trim() });
      const seat = await api.joinGame({ invite: game.invite, character });
      saveSeat({ game: game.id, playerToken: seat.token, playerName: seat.name });
      go(`/game/${game.id}`);
    } catch (e) {
      setError(playerMessage(e, "join").text);
      setBusy(false);
    }
  };

  return (
    <main id="main" class="page narrow">
      <h1>Start a game</h1>
      <form onSubmit={create}>
        <fieldset>
          <legend>World</legend>
          <div class="choices">
            {worlds.map((w) => (
              <label class="choice" key={w.hash}>
                <input type="radio" name="world" checked={hash === w.hash} onChange={() => setHash(w.hash)} />
                <span>
                  {w.name}
                  {w.bundled ? <span class="badge">example</span> : null}
                  <span class="muted small"> {Math.round(w.bytes / 1024)} KiB</span>
                </span>
              </label>
            ))}
          </div>
          <label class="field">
            <span>Or upload a world file (.json)</span>
            <input
              type="file"
              accept=".json,application/json"
              disabled={uploading}
              aria-invalid={uploadError !== ""}
              aria-describedby="upload-problem"
              onChange={(e) => {
                const file = (e.target as HTMLInputElement).files?.[0];
                if (file) void upload(file);
              }}
            />
          </label>
          <p class="error" id="upload-problem" aria-live="polite">
            {uploadError}
          </p>
          {uploading ? <p role="status">Checking the world…</p> : null}
          {report ? (
            <Diagnostics
              report={report}
              title={
                refused
                  ? "This world has errors and was not uploaded"
                  : report.errorCount > 0
                    ? "Uploaded: it plays, but these errors may break the story"
                    : "Warnings"
              }
            />
          ) : null}
          {world ? <p class="background">{world.background}</p> : null}
        </fieldset>

        {world ? (
          <>
            <fieldset>
              <legend>Story start</legend>
              <div class="choices">
                {world.storyStarts.map((s) => (
                  <label class="choice card" key={s.name}>
                    <input
                      type="radio"
                      name="start"
                      checked={start === s.name}
                      onChange={() => setStart(s.name)}
                    />
                    <span>
                      <strong>{s.name}</strong>
                      <span class="muted block">{s.description}</span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
            <CharacterPicker world={world} taken={[]} onChange={setCharacter} />
            <fieldset>
              <legend>The game</legend>
              <label class="field">
                <span>Name of the game</span>
                <input
                  value={gameName}
                  maxLength={80}
                  onInput={(e) => setGameName((e.target as HTMLInputElement).value)}
                />
              </label>
              <label class="field">
                <span>Narrator</span>
                <select
                  value={narrator}
                  onChange={(e) => setNarrator((e.target as HTMLSelectElement).value as "server" | "offline")}
                >
                  <option value="server">The server's narrator</option>
                  <option value="offline">Offline narrator (no AI, instant)</option>
                </select>
              </label>
            </fieldset>
          </>
        ) : null}
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" class="primary" disabled={!world || !character || busy}>
          {busy ? "Creating…" : "Create the game"}
        </button>
      </form>
    </main>
  );
}

/** Where this browser keeps the host token it uploads worlds with (one per browser, kept across visits). */
const UPLOADER_KEY = "taleforge.uploader";

/**
 * Uploads need a token (docs/server.md "Uploads"): this browser's uploads use the host token of a game
 * it created for them, on the bundled world (a game that stays in its lobby), within that token's
 * quota. A token the server no longer knows (a new server, the game deleted) is replaced once.
 */
async function uploadWithToken(text: string, fileName: string, worlds: WorldListing[]) {
  const token = async (fresh: boolean) => {
    const kept = fresh ? null : localStorage.getItem(UPLOADER_KEY);
    if (kept) return kept;
    const bundled = worlds.find((w) => w.bundled) ?? (await api.listWorlds()).worlds.find((w) => w.bundled);
    if (!bundled) return undefined;
    const created = await api.createGame({ world: bundled.hash });
    localStorage.setItem(UPLOADER_KEY, created.hostToken);
    return created.hostToken;
  };
  try {
    return await api.uploadWorld(text, fileName, await token(false));
  } catch (e) {
    if (!(e instanceof ApiFailure) || e.code !== "auth/invalid") throw e;
    return api.uploadWorld(text, fileName, await token(true));
  }
}
