/**
 * SVG to PNG with resvg (`@resvg/resvg-js`: a native renderer shipped in
 * per-platform npm packages; no browser, nothing downloaded at install or
 * run time). Loaded only when a PNG is asked for.
 *
 * Text needs a font: resvg reads the system's fonts. Where there is none (a
 * bare container), it draws no text at all and says nothing, so a one-word
 * probe tells the caller, who can warn.
 *
 * resvg aborts the whole process (a Rust panic, not an exception) on a
 * layer (group opacity, markers) that lies wholly outside the picture. The
 * drawings of src/author keep every such element inside their canvas; do not
 * feed this arbitrary SVG.
 */

export interface Png {
  data: Uint8Array;
  width: number;
  height: number;
  /** False when no font was found: the PNG has shapes but no text. */
  hasText: boolean;
}

/** Larger pictures are scaled down to this many pixels on their longer side (memory: width × height × 4 bytes). */
export const MAX_PNG_SIDE = 8192;

const FONT = { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans" };

export async function svgToPng(svg: string): Promise<Png> {
  const { Resvg } = await import("@resvg/resvg-js");
  const size = rootSize(svg) ?? new Resvg(svg, { font: FONT });
  const longer = Math.max(size.width, size.height);
  const fitTo =
    longer > MAX_PNG_SIDE
      ? size.width >= size.height
        ? ({ mode: "width", value: MAX_PNG_SIDE } as const)
        : ({ mode: "height", value: MAX_PNG_SIDE } as const)
      : ({ mode: "original" } as const);
  const image = new Resvg(svg, { font: FONT, fitTo, background: "#ffffff" }).render();
  return { data: image.asPng(), width: image.width, height: image.height, hasText: fontsDrawText(Resvg) };
}

/** The pixel size our drawings write on their root element, read without parsing the whole picture twice. */
function rootSize(svg: string): { width: number; height: number } | undefined {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? "";
  const width = Number(/\swidth="([\d.]+)"/.exec(root)?.[1]);
  const height = Number(/\sheight="([\d.]+)"/.exec(root)?.[1]);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

let textProbe: boolean | undefined;

function fontsDrawText(Resvg: typeof import("@resvg/resvg-js").Resvg): boolean {
  if (textProbe === undefined) {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><text x="2" y="16" font-size="16" font-family="DejaVu Sans, sans-serif">Ag</text></svg>';
    const pixels = new Resvg(svg, { font: FONT }).render().pixels;
    textProbe = false;
    // Transparent background: any pixel with some alpha is ink.
    for (let i = 3; i < pixels.length; i += 4) {
      if (pixels[i]! > 0) {
        textProbe = true;
        break;
      }
    }
  }
  return textProbe;
}
