import nameMismatch from "./name-mismatch.ts";

export default [nameMismatch];
