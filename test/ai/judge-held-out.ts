/**
 * The offline judge's held-out table (issue 40, 1): conditions and player
 * phrasings written WITHOUT reading the judge's vocabulary, synonym groups or
 * fitted table. The queries are the completion conditions and objectives of
 * the real worlds in ../shared/worlds (Hedoria's quests, copied here as short
 * sentences only as condition text, not as a world) and of worlds in other
 * vocabularies (a desert caravan, a space station); the actions are how a
 * player might phrase the act, paraphrases included; the verdict is what a
 * fair human judge would give.
 *
 * Do not edit a row to make the judge pass it: the table measures how the
 * judge generalises, so a row it gets wrong stays wrong (and counted) until
 * a general change to the judge gets it right.
 */

export type HeldOutRow = [kind: "action" | "story", query: string, text: string, expected: boolean];

const BASKET = "Does the player deliver the sealed basket to the apothecary?";
const BUNDLE = "The player retrieves the bundle from the roadside marker";
const VERMIN = "Does the player kill the Gristlemaws in the cellar?";
const ESCORT = "Does the player escort the wagon to High-Garden Hamlet?";
const WATER = "Does the player fill the waterskins at the oasis well?";
const CAMEL = "Does the player saddle the camel?";
const AIRLOCK = "Does the player seal the airlock?";
const REACTOR = "Does the player repair the reactor coolant pump?";
const CAPTAIN = "Does the player salute the captain?";
const MAP = "Does the player buy the star chart from the trader?";
const STORM = "A sandstorm reaches the caravan";
const ALARM = "The station's alarm sounds";

export const HELD_OUT: HeldOutRow[] = [
  // Hedoria: the apothecary's basket.
  ["action", BASKET, "deliver the sealed basket to the apothecary", true],
  ["action", BASKET, "I hand the basket to the apothecary", true],
  ["action", BASKET, "give the sealed basket to the apothecary", true],
  ["action", BASKET, "bring the basket to the apothecary", true],
  ["action", BASKET, "open the sealed basket", false],
  ["action", BASKET, "ask the apothecary about the basket", false],
  ["action", BASKET, "I refuse to deliver the basket", false],
  // Hedoria: the road-marker bundle.
  ["action", BUNDLE, "retrieve the bundle from the roadside marker", true],
  ["action", BUNDLE, "take the bundle from the marker post", true],
  ["action", BUNDLE, "pick up the bundle at the roadside marker", true],
  ["action", BUNDLE, "look at the roadside marker", false],
  ["action", BUNDLE, "leave the bundle at the marker", false],
  // Hedoria: the cellar vermin.
  ["action", VERMIN, "kill the Gristlemaws in the cellar", true],
  ["action", VERMIN, "I slay the gristlemaws", true],
  ["action", VERMIN, "attack the Gristlemaws in the cellar", false],
  ["action", VERMIN, "go down to the cellar", false],
  ["action", VERMIN, "don't kill the gristlemaws", false],
  // Hedoria: the Avenor run.
  ["action", ESCORT, "escort the wagon to High-Garden Hamlet", true],
  ["action", ESCORT, "I guard the wagon on the road to High-Garden Hamlet", true],
  ["action", ESCORT, "travel to High-Garden Hamlet alone", false],
  ["action", ESCORT, "inspect the wagon", false],
  // A desert caravan.
  ["action", WATER, "fill the waterskins at the oasis well", true],
  ["action", WATER, "I fill our waterskins at the well", true],
  ["action", WATER, "refill the water skins from the oasis well", true],
  ["action", WATER, "drink from the oasis well", false],
  ["action", WATER, "empty the waterskins", false],
  ["action", CAMEL, "saddle the camel", true],
  ["action", CAMEL, "I put the saddle on my camel", true],
  ["action", CAMEL, "feed the camel", false],
  ["action", CAMEL, "ride the camel", false],
  ["action", MAP, "buy the star chart from the trader", true],
  ["action", MAP, "I purchase the star chart", true],
  ["action", MAP, "steal the star chart from the trader", false],
  ["action", MAP, "ask the trader about the star chart", false],
  // A space station.
  ["action", AIRLOCK, "seal the airlock", true],
  ["action", AIRLOCK, "I close and seal the airlock door", true],
  ["action", AIRLOCK, "open the airlock", false],
  ["action", AIRLOCK, "look through the airlock window", false],
  ["action", REACTOR, "repair the reactor coolant pump", true],
  ["action", REACTOR, "fix the coolant pump of the reactor", true],
  ["action", REACTOR, "I mend the reactor's coolant pump with my tools", true],
  ["action", REACTOR, "inspect the coolant pump", false],
  ["action", REACTOR, "shut down the reactor", false],
  ["action", CAPTAIN, "salute the captain", true],
  ["action", CAPTAIN, "I salute Captain Oduya", true],
  ["action", CAPTAIN, "ignore the captain", false],
  // Story questions.
  ["story", STORM, "A sandstorm reaches the caravan and the camels kneel against the wind.", true],
  ["story", STORM, "The sandstorm finally reaches the caravan at dusk.", true],
  ["story", STORM, "The guide warns that a sandstorm may come tomorrow.", false],
  ["story", STORM, "The caravan rests at the oasis under a clear sky.", false],
  ["story", ALARM, "The station's alarm sounds through every corridor.", true],
  ["story", ALARM, "Somewhere below, the station alarm begins to sound.", true],
  ["story", ALARM, "The engineer says the alarm has been broken for weeks.", false],
  ["story", ALARM, "The corridors of the station are quiet.", false],
];
