import { oneLine, textWidth } from "../text.ts";
import { escapeXml, num } from "../xml.ts";
import { fitText, LabelSpace, type Placed, placeLabel, type TextSpec, textBox, wrapText } from "./labels.ts";
import type { MapLocation, RealmMap } from "./model.ts";

/**
 * The realm map as a standalone SVG. The drawing is in world units (one
 * region cell is `regionSize` units, as in the world file) with north up, so
 * a location's circle has exactly its `radius` and sits at its offset from
 * the centre of its region's cell; `width` and `height` scale it to pixels.
 *
 * Every part carries a class and data attributes so that tests and scripts
 * can read the map as data:
 * - `<g class="region known|unknown" data-region data-x data-y>` with a
 *   `<rect>` (the cell) and the region's name;
 * - `<g class="terrain" data-x data-y>`: an empty cell (spec 2.4 rule 5);
 * - `<g class="location known|unknown" data-location data-region>` with a
 *   `<circle>` of the location's radius, its name and its areas;
 * - `<g class="party">` when a saved game places the party in this realm.
 *
 * No `opacity` attribute and no markers: the PNG renderer (resvg) aborts the
 * process on such layers when they fall outside the picture.
 */

/** Pixels for one region cell, shrunk for large grids so that the picture stays under MAX_PIXELS a side. */
const CELL_PIXELS = 320;
const MAX_PIXELS = 4096;
const MAX_LABEL = 36;
const COMPASS = "N ↑";

const STYLE = {
  knownRegion: 'fill="#eef5e4" stroke="#5b6b4a"',
  unknownRegion: 'fill="#e5e7eb" stroke="#6b7280" stroke-dasharray="6 4"',
  terrain: 'fill="url(#terrain)" stroke="#cbd5e1"',
  knownLocation: 'fill="#2f6f8f" fill-opacity="0.35" stroke="#1f4e66"',
  unknownLocation: 'fill="#ffffff" fill-opacity="0.6" stroke="#6b7280" stroke-dasharray="2 1.5"',
};

export function realmMapSvg(map: RealmMap): string {
  const S = map.regionSize;
  const b = map.bounds;
  const columns = b ? b.maxX - b.minX + 1 : 3;
  const rows = b ? b.maxY - b.minY + 1 : 1;
  const font = {
    title: S * 0.11,
    subtitle: S * 0.045,
    region: S * 0.062,
    location: S * 0.042,
    areas: S * 0.03,
    axis: S * 0.04,
  };
  const left = S * 0.28;
  const top = S * 0.36;
  const gridWidth = columns * S;
  const gridHeight = rows * S;
  const legendTop = top + gridHeight + S * 0.16;
  const legendSize = font.areas * 1.15;
  const title = oneLine(map.realm) + (map.realmKnown ? "" : " (unknown)");
  // Wide enough for the grid, and for the title, the summary and the legend of a one-cell realm.
  const width =
    left +
    S * 0.12 +
    Math.max(
      gridWidth,
      textWidth(title, font.title) * 1.1 + S * 0.3,
      // The summary shares its line with the compass at the right.
      textWidth(summary(map, columns, rows), font.subtitle) +
        textWidth(COMPASS, font.subtitle * 1.3) +
        S * 0.1,
      legendWidth(map, legendSize),
    );
  const height = legendTop + S * 0.2;
  const scale = Math.min(CELL_PIXELS / S, MAX_PIXELS / Math.max(width, height));
  const pixelWidth = Math.max(1, Math.round(width * scale));
  const pixelHeight = Math.max(1, Math.round(height * scale));

  // Cell (x, y) has its top-left corner here; y grows north, so rows go up the map.
  const cellX = (x: number) => left + (b ? x - b.minX : 0) * S;
  const cellY = (y: number) => top + (b ? b.maxY - y : 0) * S;
  const pointX = (east: number) => left + (b ? east - (b.minX - 0.5) * S : 0);
  const pointY = (north: number) => top + (b ? (b.maxY + 0.5) * S - north : 0);

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pixelWidth}" height="${pixelHeight}" viewBox="0 0 ${num(width)} ${num(height)}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">`,
    `<title>${escapeXml(`Realm map: ${map.realm}`)}</title>`,
    "<defs>",
    `<pattern id="terrain" patternUnits="userSpaceOnUse" width="${num(S / 16)}" height="${num(S / 16)}" patternTransform="rotate(45)"><rect width="${num(S / 16)}" height="${num(S / 16)}" fill="#f4efe6"/><line x1="0" y1="0" x2="0" y2="${num(S / 16)}" stroke="#d6cbb6" stroke-width="${num(S / 60)}"/></pattern>`,
    "</defs>",
    `<rect class="background" x="0" y="0" width="${num(width)}" height="${num(height)}" fill="#ffffff"/>`,
    `<text class="realm-name" x="${num(left)}" y="${num(top * 0.45)}" font-size="${num(font.title)}" font-weight="bold" fill="#1f2937">${escapeXml(title)}</text>`,
    `<text class="summary" x="${num(left)}" y="${num(top * 0.8)}" font-size="${num(font.subtitle)}" fill="#4b5563">${escapeXml(summary(map, columns, rows))}</text>`,
    `<text class="compass" x="${num(width - S * 0.12)}" y="${num(top * 0.8)}" font-size="${num(font.subtitle * 1.3)}" text-anchor="end" fill="#374151">${COMPASS}</text>`,
  ];
  // Every fixed text reserves its box first; location labels are then placed around them.
  const space = new LabelSpace({ x0: 0, y0: 0, x1: width, y1: height });
  const fixed = (spec: TextSpec) => space.reserve(textBox(spec));
  fixed({ text: title, x: left, y: top * 0.45, size: font.title, anchor: "start", bold: true });
  fixed({ text: summary(map, columns, rows), x: left, y: top * 0.8, size: font.subtitle, anchor: "start" });
  fixed({ text: COMPASS, x: width - S * 0.12, y: top * 0.8, size: font.subtitle * 1.3, anchor: "end" });

  out.push('<g class="grid">');
  if (!b) {
    out.push(
      `<text class="empty" x="${num(left)}" y="${num(top + S * 0.5)}" font-size="${num(font.location)}" fill="#6b7280">${escapeXml(`No region is in realm "${oneLine(map.realm, MAX_LABEL)}": there is nothing to draw.`)}</text>`,
    );
  } else {
    if (map.terrain === null) {
      // Too many empty cells to list: one backdrop under the regions shows the same thing.
      out.push(
        `<g class="terrain backdrop"><rect x="${num(left)}" y="${num(top)}" width="${num(gridWidth)}" height="${num(gridHeight)}" ${STYLE.terrain}/></g>`,
      );
    } else {
      for (const cell of map.terrain) {
        const x = cellX(cell.x);
        const y = cellY(cell.y);
        out.push(
          `<g class="terrain" data-x="${cell.x}" data-y="${cell.y}">`,
          `<title>${escapeXml(`(${cell.x}, ${cell.y}): no region; random terrain (an empty cell of the realm's grid)`)}</title>`,
          `<rect x="${num(x)}" y="${num(y)}" width="${num(S)}" height="${num(S)}" ${STYLE.terrain}/>`,
          `<text x="${num(x + S / 2)}" y="${num(y + S / 2)}" font-size="${num(font.areas)}" font-style="italic" text-anchor="middle" fill="#9a8f7a">random terrain</text>`,
          "</g>",
        );
        fixed({ text: "random terrain", x: x + S / 2, y: y + S / 2, size: font.areas, anchor: "middle" });
      }
    }
    // Regions sharing a cell stack their names, so none hides another.
    const seen = new Map<string, number>();
    for (const region of map.regions) {
      const cell = `${region.x},${region.y}`;
      const nth = seen.get(cell) ?? 0;
      seen.set(cell, nth + 1);
      const x = cellX(region.x);
      const y = cellY(region.y);
      // A region's name never runs past its cell.
      const name = fitText(
        oneLine(region.key, MAX_LABEL) + (region.known ? "" : " (unknown)"),
        font.region,
        S * 0.92,
        true,
      );
      const nameY = y + S * 0.09 + nth * font.region * 1.2;
      fixed({ text: name, x: x + S * 0.04, y: nameY, size: font.region, anchor: "start", bold: true });
      out.push(
        `<g class="region ${region.known ? "known" : "unknown"}" data-region="${escapeXml(region.key)}" data-x="${num(region.x)}" data-y="${num(region.y)}">`,
        `<title>${escapeXml(`${region.key} (${num(region.x)}, ${num(region.y)})${region.known ? "" : ", unknown to the player"}`)}</title>`,
        `<rect x="${num(x)}" y="${num(y)}" width="${num(S)}" height="${num(S)}" ${region.known ? STYLE.knownRegion : STYLE.unknownRegion} stroke-width="${num(S / 200)}"/>`,
        `<text class="region-name" x="${num(x + S * 0.04)}" y="${num(nameY)}" font-size="${num(font.region)}" font-weight="bold"${region.known ? "" : ' font-style="italic"'} fill="${region.known ? "#374151" : "#6b7280"}">${escapeXml(name)}</text>`,
        "</g>",
      );
    }
    const axisTexts = axes(b, cellX, cellY, S, font.axis, top, gridHeight, left);
    for (const spec of axisTexts) fixed(spec);
    if (axisTexts.length > 0)
      out.push(
        '<g class="axes" fill="#6b7280">',
        ...axisTexts.map((t) => `${textTag(t, "")}${escapeXml(t.text)}</text>`),
        "</g>",
      );
  }
  out.push("</g>");

  const partyOut = map.party ? party(map.party, pointX, pointY, S, font.areas * 1.1, width, fixed) : [];
  const legendOut = legend(map, left, legendTop, S, legendSize, fixed);
  const labels = placeLocationLabels(map.locations, space, pointX, pointY, S, font);

  out.push('<g class="locations">');
  for (const location of map.locations) {
    const cx = pointX(location.east);
    const cy = pointY(location.north);
    const r = Number.isFinite(location.radius) && location.radius > 0 ? location.radius : 0;
    const label = labels.get(location) ?? [];
    out.push(
      `<g class="location ${location.known ? "known" : "unknown"}" data-location="${escapeXml(location.key)}" data-region="${escapeXml(location.region)}">`,
      `<title>${escapeXml(`${location.key} in ${location.region}, offset (${num(location.x)}, ${num(location.y)}), radius ${num(location.radius)}${location.known ? "" : ", unknown to the player"}${location.areas.length ? `; areas: ${location.areas.join(", ")}` : ""}`)}</title>`,
      `<circle cx="${num(cx)}" cy="${num(cy)}" r="${num(r)}" ${location.known ? STYLE.knownLocation : STYLE.unknownLocation} stroke-width="${num(S / 250)}"/>`,
      `<circle class="centre" cx="${num(cx)}" cy="${num(cy)}" r="${num(S / 140)}" fill="${location.known ? "#1f4e66" : "#6b7280"}"/>`,
    );
    label.forEach((line, i) => {
      const attributes =
        i === 0
          ? ` class="location-name"${location.known ? "" : ' font-style="italic"'} fill="${location.known ? "#111827" : "#6b7280"}"`
          : ' class="areas" fill="#4b5563"';
      out.push(`${textTag(line, attributes)}${escapeXml(line.text)}</text>`);
    });
    out.push("</g>");
  }
  out.push("</g>");

  out.push(...partyOut, ...legendOut);
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

function summary(map: RealmMap, columns: number, rows: number): string {
  const regions = `${map.regions.length} region${map.regions.length === 1 ? "" : "s"}`;
  const locations = `${map.locations.length} location${map.locations.length === 1 ? "" : "s"}`;
  const grid = map.bounds ? ` · ${num(columns)} × ${num(rows)} cells of ${num(map.regionSize)} units` : "";
  const stray = map.regionsWithoutRealm.length
    ? ` · ${map.regionsWithoutRealm.length} region${map.regionsWithoutRealm.length === 1 ? "" : "s"} without a realm not drawn`
    : "";
  return `${regions} · ${locations}${grid}${stray}`;
}

function axes(
  b: NonNullable<RealmMap["bounds"]>,
  cellX: (x: number) => number,
  cellY: (y: number) => number,
  S: number,
  size: number,
  top: number,
  gridHeight: number,
  left: number,
): TextSpec[] {
  const columns = b.maxX - b.minX + 1;
  const rows = b.maxY - b.minY + 1;
  // Every cell gets its coordinate unless the grid is too large for the labels to be read.
  if (columns * rows > 400) return [];
  const out: TextSpec[] = [];
  for (let x = b.minX; x <= b.maxX; x++)
    out.push({
      text: `x = ${num(x)}`,
      x: cellX(x) + S / 2,
      y: top + gridHeight + size * 1.3,
      size,
      anchor: "middle",
    });
  for (let y = b.minY; y <= b.maxY; y++)
    out.push({ text: `y = ${num(y)}`, x: left - size * 0.5, y: cellY(y) + S / 2, size, anchor: "end" });
  return out;
}

/** The opening tag of a text line, with its position, size, anchor and weight. */
function textTag(spec: TextSpec, attributes: string): string {
  const anchor = spec.anchor === "start" ? "" : ` text-anchor="${spec.anchor}"`;
  const weight = spec.bold ? ' font-weight="bold"' : "";
  return `<text${attributes} x="${num(spec.x)}" y="${num(spec.y)}" font-size="${num(spec.size)}"${anchor}${weight}>`;
}

/** Longest name and areas line before they are shortened, in region cells. */
const LABEL_WIDTH = 0.7;

/**
 * Labels of the locations, most important first (known, then larger), each
 * beside its point without covering another text or another point.
 */
function placeLocationLabels(
  locations: MapLocation[],
  space: LabelSpace,
  pointX: (east: number) => number,
  pointY: (north: number) => number,
  S: number,
  font: { location: number; areas: number },
): Map<MapLocation, Placed> {
  const dot = S / 140;
  const points = locations.map((location) => ({
    location,
    cx: pointX(location.east),
    cy: pointY(location.north),
  }));
  for (const p of points) space.reserve({ x0: p.cx - dot, y0: p.cy - dot, x1: p.cx + dot, y1: p.cy + dot });
  const order = [...points].sort(
    (a, b) =>
      Number(b.location.known) - Number(a.location.known) || radiusOf(b.location) - radiusOf(a.location),
  );
  const placed = new Map<MapLocation, Placed>();
  const maxWidth = S * LABEL_WIDTH;
  for (const { location, cx, cy } of order) {
    const full = oneLine(location.key, MAX_LABEL) + (location.known ? "" : " (unknown)");
    const areas = location.areas.length > 0 ? oneLine(location.areas.join(" · "), MAX_LABEL * 3) : "";
    const label = placeLabel(space, {
      cx,
      cy,
      // A big circle keeps its label at its rim only up to a point: beyond that the label sits inside it.
      r: Math.min(radiusOf(location), S * 0.08),
      name: { text: fitText(full, font.location, maxWidth), size: font.location },
      extra: { lines: areas === "" ? [] : wrapText(areas, font.areas, maxWidth, 2), size: font.areas },
      short: fitText(full, font.location, maxWidth / 2.5),
    });
    if (label) placed.set(location, label);
  }
  return placed;
}

function radiusOf(location: MapLocation): number {
  return Number.isFinite(location.radius) && location.radius > 0 ? location.radius : 0;
}

function party(
  at: NonNullable<RealmMap["party"]>,
  pointX: (east: number) => number,
  pointY: (north: number) => number,
  S: number,
  size: number,
  width: number,
  fixed: (spec: TextSpec) => void,
): string[] {
  const px = pointX(at.east);
  const py = pointY(at.north);
  const d = S * 0.03;
  const where = [at.location, at.area].filter((s) => s !== "").join(", ") || at.region;
  const right: TextSpec = {
    text: "party",
    x: px + d * 1.4,
    y: py - d * 0.6,
    size,
    anchor: "start",
    bold: true,
  };
  // At the east edge of the picture the word goes to the marker's left.
  const label: TextSpec = textBox(right).x1 <= width ? right : { ...right, x: px - d * 1.4, anchor: "end" };
  fixed(label);
  return [
    `<g class="party" data-region="${escapeXml(at.region)}" data-location="${escapeXml(at.location)}">`,
    `<title>${escapeXml(`The party: ${where}`)}</title>`,
    `<path d="M${num(px)},${num(py - d)} L${num(px + d)},${num(py)} L${num(px)},${num(py + d)} L${num(px - d)},${num(py)} Z" fill="#dc2626" stroke="#7f1d1d" stroke-width="${num(S / 300)}"/>`,
    `${textTag(label, ' fill="#b91c1c"')}party</text>`,
    "</g>",
  ];
}

const LEGEND_TEXT = [
  "region",
  "unknown region",
  "random terrain",
  "location (radius to scale)",
  "unknown location",
];
const PARTY_TEXT = "party (saved game)";

function legendWidth(map: RealmMap, size: number): number {
  const box = size * 1.1;
  const texts = map.party ? [...LEGEND_TEXT, PARTY_TEXT] : LEGEND_TEXT;
  return texts.reduce((sum, text) => sum + box * 2.6 + textWidth(text, size), 0);
}

function legend(
  map: RealmMap,
  left: number,
  top: number,
  S: number,
  size: number,
  fixed: (spec: TextSpec) => void,
): string[] {
  const box = size * 1.1;
  const [region, unknownRegion, terrain, location, unknownLocation] = LEGEND_TEXT as [
    string,
    string,
    string,
    string,
    string,
  ];
  const items: [string, string][] = [
    [
      `<rect x="0" y="${num(-box * 0.85)}" width="${num(box)}" height="${num(box)}" ${STYLE.knownRegion}/>`,
      region,
    ],
    [
      `<rect x="0" y="${num(-box * 0.85)}" width="${num(box)}" height="${num(box)}" ${STYLE.unknownRegion} stroke-width="${num(S / 400)}"/>`,
      unknownRegion,
    ],
    [
      `<rect x="0" y="${num(-box * 0.85)}" width="${num(box)}" height="${num(box)}" ${STYLE.terrain}/>`,
      terrain,
    ],
    [
      `<circle cx="${num(box / 2)}" cy="${num(-box * 0.35)}" r="${num(box / 2)}" ${STYLE.knownLocation}/>`,
      location,
    ],
    [
      `<circle cx="${num(box / 2)}" cy="${num(-box * 0.35)}" r="${num(box / 2)}" ${STYLE.unknownLocation} stroke-width="${num(S / 400)}"/>`,
      unknownLocation,
    ],
  ];
  if (map.party) {
    const d = box / 2;
    items.push([
      `<path d="M${num(d)},${num(-box * 0.35 - d)} L${num(2 * d)},${num(-box * 0.35)} L${num(d)},${num(-box * 0.35 + d)} L0,${num(-box * 0.35)} Z" fill="#dc2626"/>`,
      PARTY_TEXT,
    ]);
  }
  const out = [`<g class="legend" font-size="${num(size)}" fill="#374151">`];
  let x = left;
  for (const [swatch, text] of items) {
    const label: TextSpec = { text, x: x + box * 1.4, y: top, size, anchor: "start" };
    fixed(label);
    out.push(
      `<g transform="translate(${num(x)},${num(top)})">${swatch}</g>`,
      `${textTag(label, "")}${escapeXml(text)}</text>`,
    );
    x += box * 1.4 + textWidth(text, size) + box * 1.2;
  }
  out.push("</g>");
  return out;
}
