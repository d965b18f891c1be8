import { ApiFailure } from "./api.ts";

/**
 * What a refusal of the server means to a player, in their words: the
 * server's messages are written for whoever calls the API (they name fields,
 * routes and documents); the page says what happened and what to do, from
 * the error's stable code. `field` names the control the message is about,
 * so the page can show it beside that control.
 */
export interface PlayerMessage {
  text: string;
  field?: "action" | "name" | "file" | "game";
}

/** What the player was doing, for the few codes whose meaning depends on it. */
export type Doing = "act" | "answer" | "join" | "start" | "upload" | "host" | "read" | "retry" | "control";

const NAME_RULE =
  "A character's name can hold letters, digits, spaces and punctuation, up to 60 characters: no line breaks and no invisible characters.";

export function playerMessage(error: unknown, doing: Doing): PlayerMessage {
  if (!(error instanceof ApiFailure))
    return { text: "Something went wrong in this page. Reload it and try again." };
  const details = error.details as {
    issues?: { path?: string }[];
    status?: string;
    retryAfterSeconds?: number;
  };
  const path = details.issues?.[0]?.path ?? "";
  switch (error.code) {
    case "network":
      return {
        text:
          doing === "act"
            ? "The server cannot be reached. Your action is still in the box: check your connection and press Act again."
            : "The server cannot be reached. Check your connection and try again.",
      };
    case "submission/conflict":
    case "submission/key-reused":
      return {
        text: "You have already acted this turn (perhaps in another tab or on another device). The turn runs when everyone has acted.",
        field: "action",
      };
    case "game/busy":
      return { text: "The turn is being played right now. Try again once its story appears." };
    case "game/state":
      if (doing === "control" && !details.status)
        return {
          text: "The story cannot do that where it stands now (someone may have changed it first): read the story as it is now and try again.",
        };
      return { text: stateSentence(details.status, doing), field: doing === "join" ? "game" : undefined };
    case "game/name-taken":
      return {
        text: "Another player of this game already plays this character: choose another name.",
        field: "name",
      };
    case "game/no-players":
      return { text: "Nobody has joined yet: send the invite link to the other players first." };
    case "game/invite-unknown":
      return { text: "This invite link does not open any game. Ask the host to send it again." };
    case "turn/no-actions":
      return { text: "Nobody has acted yet this turn: the turn can run once someone has." };
    case "turn/failed":
      return { text: "The narrator did not answer. Try again in a moment." };
    case "rate/limited":
      return {
        text: `That was a lot at once: wait ${details.retryAfterSeconds ?? 30} s and try again.`,
        field: doing === "act" ? "action" : undefined,
      };
    case "auth/kicked":
      return { text: "The host has removed you from this game." };
    case "auth/invalid":
    case "auth/missing":
    case "auth/other-game":
      return {
        text: "This browser's seat in the game no longer works. Ask the host for a seat link to play your character again.",
      };
    case "auth/host-only":
      return { text: "Only the game's host can do that." };
    case "request/too-large":
      return doing === "upload"
        ? { text: "This world file is too large to upload (at most 8 MiB).", field: "file" }
        : { text: "That is too long to send.", field: doing === "act" ? "action" : undefined };
    case "request/malformed-json":
    case "request/unsupported-type":
      return doing === "upload"
        ? {
            text: "This file is not a world file: it is not JSON. Choose the .world.json file.",
            field: "file",
          }
        : { text: "The page sent something the server could not read. Reload the page and try again." };
    case "request/invalid":
      if (doing === "control")
        return {
          text: "The new text is empty or too long (at most 20,000 characters): change it and save again.",
        };
      if (/character\.name|^body\.name|name/.test(path)) return { text: NAME_RULE, field: "name" };
      if (/text/.test(path))
        return {
          text: "Your action holds characters that cannot be shown, or is too long (at most 2,000 characters).",
          field: "action",
        };
      if (doing === "upload") return { text: "This file is not a world file.", field: "file" };
      return { text: "The server did not accept that. Reload the page and try again." };
    case "world/invalid":
      return {
        text: "This world has errors and was not uploaded: they are listed below the file.",
        field: "file",
      };
    case "world/not-found":
      return { text: "This world is no longer on the server. Choose another one or upload it again." };
    case "history/refused":
    case "engine/refused":
      // The engine's and the story controls' refusals are written for players (an unknown quest,
      // an offer that lapsed, a turn that is not on this branch).
      return { text: error.message };
    case "game/control-denied":
      return {
        text: "The game's rules do not let you do this now: the host decides it, or changes the rules in the host tools.",
      };
    case "game/vote-open":
      return {
        text: "The party is voting on something else already: vote on it at the top of the page, then ask again.",
      };
    case "game/vote-closed":
      return { text: "That vote has closed already: its outcome is at the top of the page." };
    case "sse/too-many":
      return { text: "This game is open in too many tabs: close one of them." };
    default:
      if (error.status === 507 || error.status === 503)
        return { text: "The server is busy or restarting: nothing was changed. Try again in a moment." };
      return {
        text: "Something went wrong on the server: nothing was changed. Try again; if it keeps happening, tell the host.",
      };
  }
}

function stateSentence(status: string | undefined, doing: Doing): string {
  if (doing === "start") return "The game has already started.";
  if (doing === "join")
    return "This game has started and every character in it is played. Ask the host for a seat link if one of them is yours.";
  switch (status) {
    case "paused":
      return "The game is paused: you can act again once the host resumes it.";
    case "ended":
      return "The game has ended.";
    case "lobby":
      return "The game has not started yet: the host starts it when everyone is here.";
    default:
      return "The game cannot do that right now. Try again in a moment.";
  }
}

/** A refusal of the event stream (sse.ts), as the line under the title says it. */
export function streamTrouble(status: number): string {
  if (status === 429) return "This game is open in too many tabs: close one and this one reconnects.";
  if (status === 401 || status === 403)
    return "This browser's seat no longer works (the host removed it or made a seat link): ask the host.";
  if (status === 0) return "Connection lost: check your network. Reconnecting…";
  return "The server is not answering. Reconnecting…";
}
