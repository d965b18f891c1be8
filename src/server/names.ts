import unhomoglyph from "unhomoglyph";

/**
 * A name's confusable skeleton: two names with one skeleton look alike to a reader ("Isobel" with a
 * Latin I and "Іsobel" with a Cyrillic one, "Ada", "ada" and "Ａda"). Compatibility forms are folded
 * (NFKC: full-width letters, ligatures), then case, then every character is mapped to its prototype
 * by the confusables table of Unicode TR39 (unhomoglyph's copy of confusables.txt), between NFD
 * decompositions as TR39's skeleton is; runs of spaces count as one.
 */
export function nameSkeleton(name: string): string {
  const folded = name.normalize("NFKC").toLowerCase().normalize("NFD");
  return unhomoglyph(folded).normalize("NFD").toLowerCase().replace(/\s+/gu, " ").trim();
}

/** The first of `others` that looks like `name` (the same skeleton), or undefined. */
export function lookalikeOf(name: string, others: Iterable<string>): string | undefined {
  const skeleton = nameSkeleton(name);
  for (const other of others) if (nameSkeleton(other) === skeleton) return other;
  return undefined;
}
