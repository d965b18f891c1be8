import { getLanguageService, type JSONDocument, type LanguageService } from "vscode-json-languageservice";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { worldJsonSchema } from "../world/json-schema.ts";

/**
 * The JSON language service over the world's JSON Schema (`taleforge
 * schema`, made from the same zod descriptions as docs/format.md): it serves
 * field hovers, field and enum completion, folding and formatting. Its own
 * validation is off: check's diagnostics say more, with codes.
 */
const SCHEMA_URI = "taleforge://schema/world.schema.json";
let service: LanguageService | undefined;

export function jsonService(): LanguageService {
  if (service) return service;
  service = getLanguageService({});
  service.configure({
    validate: false,
    allowComments: false,
    schemas: [{ uri: SCHEMA_URI, fileMatch: ["*"], schema: worldJsonSchema() as never }],
  });
  return service;
}

/** The service's parse of a document, kept per document version. */
const parsed = new WeakMap<TextDocument, JSONDocument>();

export function jsonDocumentOf(document: TextDocument): JSONDocument {
  let json = parsed.get(document);
  if (!json) {
    json = jsonService().parseJSONDocument(document);
    parsed.set(document, json);
  }
  return json;
}
