import { textWidth } from "../text.ts";

/**
 * Label placement for the realm map: every text of the picture gets a box
 * estimated from its font size and characters (the same estimate as
 * `textWidth`), and location labels are placed greedily, most important
 * first, at the first of a few candidate positions around their point whose
 * box neither overlaps a box already taken nor leaves the picture. A label
 * with no free position loses its areas line, then is shortened, then is
 * dropped (its name stays in the location's `<title>` tooltip).
 */

export type Anchor = "start" | "middle" | "end";

export interface TextSpec {
  text: string;
  x: number;
  /** Baseline. */
  y: number;
  size: number;
  anchor: Anchor;
  bold?: boolean;
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Bold glyphs are wider than the 0.6 em estimate of regular ones. */
const BOLD = 1.1;

/** The estimated box of one text line: ascent 0.8 em above the baseline, descent 0.25 em below. */
export function textBox(spec: TextSpec): Box {
  const w = textWidth(spec.text, spec.size) * (spec.bold ? BOLD : 1);
  const x0 = spec.anchor === "start" ? spec.x : spec.anchor === "middle" ? spec.x - w / 2 : spec.x - w;
  return { x0, y0: spec.y - spec.size * 0.8, x1: x0 + w, y1: spec.y + spec.size * 0.25 };
}

export function overlaps(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/** `text` cut with an ellipsis so that it is at most `maxWidth` wide at `size`. */
export function fitText(text: string, size: number, maxWidth: number, bold = false): string {
  const scale = bold ? BOLD : 1;
  if (textWidth(text, size) * scale <= maxWidth) return text;
  const chars = [...text];
  let keep = chars.length;
  while (keep > 1 && textWidth(`${chars.slice(0, keep).join("")}…`, size) * scale > maxWidth) keep--;
  return `${chars.slice(0, keep).join("").trimEnd()}…`;
}

/** Words of `text` in at most `maxLines` lines of at most `maxWidth`; the last line ellipsized. */
export function wrapText(text: string, size: number, maxWidth: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = "";
  const words = text.split(" ").filter((w) => w !== "");
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = line === "" ? word : `${line} ${word}`;
    if (textWidth(next, size) <= maxWidth || line === "") {
      line = next;
      continue;
    }
    if (lines.length === maxLines - 1) {
      lines.push(fitText(`${line} ${words.slice(i).join(" ")}`, size, maxWidth));
      return lines;
    }
    lines.push(line);
    line = word;
  }
  if (line !== "") lines.push(fitText(line, size, maxWidth));
  return lines;
}

/** Boxes already taken, and the picture every box must stay inside. */
export class LabelSpace {
  private readonly taken: Box[] = [];
  constructor(private readonly frame: Box) {}

  /** Reserve a box (a fixed text or a point) without checking it. */
  reserve(box: Box): void {
    this.taken.push(box);
  }

  /** True when the box is inside the picture and free. */
  fits(box: Box): boolean {
    const f = this.frame;
    if (box.x0 < f.x0 || box.y0 < f.y0 || box.x1 > f.x1 || box.y1 > f.y1) return false;
    return !this.taken.some((t) => overlaps(t, box));
  }
}

export interface PointLabel {
  cx: number;
  cy: number;
  /** Clearance around the point (the location's circle, capped so that big circles keep their labels near). */
  r: number;
  name: { text: string; size: number };
  /** Smaller lines under the name (the areas), possibly none. */
  extra: { lines: string[]; size: number };
  /** Shortest form of the name to try before dropping the label. */
  short: string;
}

/** A placed label: its lines, all with the same anchor. */
export type Placed = TextSpec[];

const LINE = 1.25;

/**
 * Place one label: at each candidate position around the point, try the
 * full block, then the name alone, then the short name; take the first that
 * fits and reserve it. Null when nothing fits.
 */
export function placeLabel(space: LabelSpace, label: PointLabel): Placed | null {
  const variants: { name: string; extra: string[] }[] = [
    { name: label.name.text, extra: label.extra.lines },
    { name: label.name.text, extra: [] },
  ];
  if (label.short !== label.name.text) variants.push({ name: label.short, extra: [] });
  for (const variant of variants) {
    for (const candidate of candidates(label)) {
      const lines = layout(label, variant, candidate);
      const boxes = lines.map(textBox);
      if (boxes.every((b) => space.fits(b))) {
        for (const b of boxes) space.reserve(b);
        return lines;
      }
    }
  }
  return null;
}

interface Candidate {
  /** Where the block's anchor point is, relative to the point. */
  dx: number;
  dy: number;
  anchor: Anchor;
  /** The block hangs down from dy (below), up from dy (above), or is centred on it. */
  v: "below" | "above" | "centre";
}

function candidates(label: PointLabel): Candidate[] {
  const gap = label.name.size * 0.3;
  const d = label.r + gap;
  const diag = d * 0.72;
  const base: Candidate[] = [
    { dx: 0, dy: d, anchor: "middle", v: "below" },
    { dx: 0, dy: -d, anchor: "middle", v: "above" },
    { dx: d, dy: 0, anchor: "start", v: "centre" },
    { dx: -d, dy: 0, anchor: "end", v: "centre" },
    { dx: diag, dy: diag, anchor: "start", v: "below" },
    { dx: -diag, dy: diag, anchor: "end", v: "below" },
    { dx: diag, dy: -diag, anchor: "start", v: "above" },
    { dx: -diag, dy: -diag, anchor: "end", v: "above" },
  ];
  // The same positions once more, a line further out, for crowded spots.
  const far = label.name.size * 1.2;
  return [
    ...base,
    ...base.map((c) => ({
      ...c,
      dx: c.dx + Math.sign(c.dx) * far,
      dy: c.dy + Math.sign(c.dy) * far,
    })),
  ];
}

function layout(label: PointLabel, variant: { name: string; extra: string[] }, c: Candidate): Placed {
  const sizes = [label.name.size, ...variant.extra.map(() => label.extra.size)];
  const texts = [variant.name, ...variant.extra];
  // Baseline offsets from the top of the block.
  const baselines: number[] = [];
  let y = 0;
  sizes.forEach((size, i) => {
    y += i === 0 ? size * 0.8 : size * LINE;
    baselines.push(y);
  });
  const height = y + sizes[sizes.length - 1]! * 0.25;
  const top =
    c.v === "below"
      ? label.cy + c.dy
      : c.v === "above"
        ? label.cy + c.dy - height
        : label.cy + c.dy - height / 2;
  return texts.map((text, i) => ({
    text,
    x: label.cx + c.dx,
    y: top + baselines[i]!,
    size: sizes[i]!,
    anchor: c.anchor,
  }));
}
