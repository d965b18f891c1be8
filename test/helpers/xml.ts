/**
 * A small XML 1.0 reader for tests: it checks that a document is well formed
 * (one root, balanced tags, quoted and unique attributes, no raw `<` or `&`,
 * only the five predefined entities and character references to allowed
 * characters, no forbidden control characters) and returns its tree, so that
 * tests can query drawings as data. It throws with the offset of the first
 * problem. No DTDs, no namespaces beyond reading `xmlns` as an attribute.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

const NAME = /[A-Za-z_:][\w.:-]*/y;
const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
// Not allowed anywhere in an XML 1.0 document, not even as a character reference.
const FORBIDDEN =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function parseXml(text: string): XmlElement {
  const bad = FORBIDDEN.exec(text);
  if (bad) fail(bad.index, `forbidden character U+${bad[0].charCodeAt(0).toString(16).padStart(4, "0")}`);
  let at = 0;
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (text.startsWith("<!--", at)) {
        const end = text.indexOf("-->", at + 4);
        if (end < 0) fail(at, "unclosed comment");
        if (text.slice(at + 4, end).includes("--")) fail(at, "`--` inside a comment");
        at = end + 3;
      } else if (text.startsWith("<?", at)) {
        const end = text.indexOf("?>", at);
        if (end < 0) fail(at, "unclosed processing instruction");
        at = end + 2;
      } else return;
    }
  };
  const name = (): string => {
    NAME.lastIndex = at;
    const match = NAME.exec(text);
    if (!match) fail(at, "expected a name");
    at += match[0].length;
    return match[0];
  };
  const decode = (raw: string, start: number): string =>
    raw.replace(/&([^;]*);|[&<]/g, (whole, ref: string | undefined, offset: number) => {
      if (ref === undefined) fail(start + offset, `raw "${whole}" (escape it)`);
      if (ref.startsWith("#")) {
        const code = ref.startsWith("#x") ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
        if (!/^#(x[0-9a-fA-F]+|[0-9]+)$/.test(ref) || !Number.isInteger(code) || code > 0x10ffff)
          fail(start + offset, `bad character reference &${ref};`);
        const char = String.fromCodePoint(code);
        if (FORBIDDEN.test(char) || (code >= 0xd800 && code <= 0xdfff))
          fail(start + offset, `reference to a forbidden character &${ref};`);
        return char;
      }
      if (!Object.hasOwn(ENTITIES, ref)) fail(start + offset, `undefined entity &${ref};`);
      return ENTITIES[ref]!;
    });

  const element = (): XmlElement => {
    if (text[at] !== "<") fail(at, "expected an element");
    at++;
    const tag = name();
    const attributes: Record<string, string> = {};
    for (;;) {
      const before = at;
      skipSpace();
      if (text.startsWith("/>", at)) {
        at += 2;
        return { name: tag, attributes, children: [] };
      }
      if (text[at] === ">") {
        at++;
        break;
      }
      if (at === before) fail(at, "expected a space before an attribute");
      const attribute = name();
      skipSpace();
      if (text[at] !== "=") fail(at, `expected = after ${attribute}`);
      at++;
      skipSpace();
      const quote = text[at];
      if (quote !== '"' && quote !== "'") fail(at, `unquoted value of ${attribute}`);
      const end = text.indexOf(quote, at + 1);
      if (end < 0) fail(at, `unclosed value of ${attribute}`);
      if (Object.hasOwn(attributes, attribute)) fail(at, `duplicate attribute ${attribute}`);
      attributes[attribute] = decode(text.slice(at + 1, end), at + 1);
      at = end + 1;
    }
    const children: XmlNode[] = [];
    for (;;) {
      if (at >= text.length) fail(at, `unclosed <${tag}>`);
      if (text.startsWith("</", at)) {
        at += 2;
        const closing = name();
        if (closing !== tag) fail(at, `</${closing}> closes <${tag}>`);
        skipSpace();
        if (text[at] !== ">") fail(at, "expected >");
        at++;
        return { name: tag, attributes, children };
      }
      if (text.startsWith("<!--", at)) {
        skipMisc();
        continue;
      }
      if (text.startsWith("<![CDATA[", at)) {
        const end = text.indexOf("]]>", at);
        if (end < 0) fail(at, "unclosed CDATA");
        children.push(text.slice(at + 9, end));
        at = end + 3;
        continue;
      }
      if (text[at] === "<") {
        children.push(element());
        continue;
      }
      const next = text.indexOf("<", at);
      const end = next < 0 ? text.length : next;
      const raw = text.slice(at, end);
      if (raw.includes("]]>")) fail(at + raw.indexOf("]]>"), "`]]>` in text");
      children.push(decode(raw, at));
      at = end;
    }
  };

  skipMisc();
  const root = element();
  skipMisc();
  if (at !== text.length) fail(at, "content after the root element");
  return root;
}

function fail(offset: number, message: string): never {
  throw new Error(`XML not well formed at offset ${offset}: ${message}`);
}

/** Every element below (and including) `root` that matches, in document order. */
export function findAll(root: XmlElement, match: (element: XmlElement) => boolean): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (element: XmlElement) => {
    if (match(element)) out.push(element);
    for (const child of element.children) if (typeof child !== "string") walk(child);
  };
  walk(root);
  return out;
}

export function hasClass(element: XmlElement, name: string): boolean {
  return (element.attributes.class ?? "").split(/\s+/).includes(name);
}

/** Elements with all of the given classes. */
export function byClass(root: XmlElement, ...names: string[]): XmlElement[] {
  return findAll(root, (e) => names.every((n) => hasClass(e, n)));
}

/** The text content, children included. */
export function textOf(element: XmlElement): string {
  return element.children.map((c) => (typeof c === "string" ? c : textOf(c))).join("");
}

/** The first child element with this name. */
export function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c): c is XmlElement => typeof c !== "string" && c.name === name);
}

export function children(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((c): c is XmlElement => typeof c !== "string" && c.name === name);
}
