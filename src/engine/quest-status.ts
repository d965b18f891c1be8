/** A quest's status (spec 2.1), in a module of its own: the state and the outcomes both name it. */
export type QuestStatus =
  | "hidden"
  | "available"
  | "accepted"
  | "completed"
  | "abandoned"
  | "rejected"
  | "expired";
