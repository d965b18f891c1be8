import { isAbsolute, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { type Diagnostic, formatPath, type Related } from "../../world/diagnostic.ts";
import type { CodeInfo } from "../../world/rule.ts";
import type { CheckedWorld, FormatContext } from "./checked.ts";

const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

/**
 * SARIF 2.1.0 for code-scanning services (GitHub uploads it with
 * `github/codeql-action/upload-sarif`): the catalogue as the tool's rule
 * table, one result per diagnostic, and the JSON path in its properties.
 */
export function formatSarif(
  checked: CheckedWorld,
  context: Pick<FormatContext, "tool" | "catalogue">,
): string {
  const rules = context.catalogue.map(describeRule);
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));
  const uri = artifactUri(checked.file);
  const log = {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: context.tool.name,
            version: context.tool.version,
            semanticVersion: context.tool.version,
            rules,
          },
        },
        artifacts: [{ location: { uri } }],
        columnKind: "utf16CodeUnits",
        results: checked.diagnostics.map((d) => describeResult(d, uri, ruleIndex.get(d.code))),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function describeRule(info: CodeInfo) {
  return {
    id: info.code,
    shortDescription: { text: info.description },
    fullDescription: { text: info.why },
    help: { text: `${info.description} ${info.why}`, markdown: `${info.description}\n\n${info.why}` },
    defaultConfiguration: { level: info.severity },
  };
}

function describeResult(d: Diagnostic, uri: string, ruleIndex: number | undefined) {
  return {
    ruleId: d.code,
    // Codes outside the catalogue (an internal failure) have no entry to point at.
    ...(ruleIndex === undefined ? {} : { ruleIndex }),
    level: d.severity,
    message: { text: d.message },
    locations: [location(uri, d)],
    ...(d.related?.length
      ? {
          relatedLocations: d.related.map((r, i) => ({
            id: i + 1,
            ...location(uri, r),
            message: { text: r.message },
          })),
        }
      : {}),
    properties: { jsonPath: formatPath(d.path) },
  };
}

function location(uri: string, at: Pick<Related, "line" | "column">) {
  // Code scanning needs a start line; a problem without a position belongs to the file's start.
  const region = { startLine: at.line ?? 1, startColumn: at.column ?? 1 };
  return { physicalLocation: { artifactLocation: { uri }, region } };
}

/** SARIF wants URIs: a relative path (resolved against the repository root by code scanning) or a file URL. */
export function artifactUri(file: string): string {
  if (isAbsolute(file)) return pathToFileURL(file).href;
  return file.split(sep).join("/").split("/").map(encodeURIComponent).join("/");
}
