/**
 * A content hash for world identity in saves. Not cryptographic: it only has
 * to tell "the same world" from "another world", with no I/O or platform
 * dependency (the engine also runs where node:crypto does not).
 */
export function hashText(text: string): string {
  // Two independent 32-bit FNV-1a/murmur-mixed lanes: 64 bits of identity.
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b);
  h2 = Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, "0");
  return `${hex(h1)}${hex(h2)}-${text.length}`;
}
