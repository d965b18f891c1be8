import orEqualTo from "./or-equal-to.ts";

export default [orEqualTo];
