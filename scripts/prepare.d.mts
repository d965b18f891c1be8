// Types of scripts/prepare.mjs (plain JavaScript: `prepare` runs it before tsx is needed).
export function sourceStamp(root?: string): string;
export function writeStamp(outdir: string): void;
export function upToDate(outdir?: string): boolean;
