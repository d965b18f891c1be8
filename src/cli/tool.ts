import pkg from "../../package.json" with { type: "json" };

/** The program's name and version as package.json gives them (shown by --version and in SARIF). */
export const TOOL = { name: "taleforge", version: pkg.version } as const;
