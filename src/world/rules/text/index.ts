import controlCharacters from "./control-characters.ts";

export default [controlCharacters];
