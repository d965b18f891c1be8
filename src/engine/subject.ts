/** The fields that name what a condition reads; the first one holding a string wins. */
const SUBJECT_FIELDS = ["key", "resource", "questId", "eventId", "entity"] as const;

/**
 * What a condition reads, as the world names it (`ConditionTrace.subject`):
 * its storage key, resource, quest, event or entity. Read from the fields at
 * hand while the condition is evaluated: no lookup in the world, no pass of
 * its own.
 */
export function subjectOf(fields: Readonly<Record<string, unknown>>): string | undefined {
  for (const field of SUBJECT_FIELDS) {
    const value = fields[field];
    if (typeof value === "string") return value;
  }
  return undefined;
}
