import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import {
  type ConfigInput,
  describeProviderConfig,
  type ProviderConfig,
  resolveProviderConfig,
} from "../../src/ai/config.ts";

const root = mkdtempSync(join(tmpdir(), "taleforge-config-"));
after(() => rmSync(root, { recursive: true, force: true }));

let dirs = 0;
/** A fresh working directory and home, with the given files (path -> JSON value or raw text). */
function place(files: Record<string, unknown> = {}): { cwd: string; home: string } {
  const base = join(root, String(dirs++));
  const cwd = join(base, "work");
  const home = join(base, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    const full = join(base, path);
    mkdirSync(join(full, ".."), { recursive: true });
    writeFileSync(full, typeof content === "string" ? content : JSON.stringify(content));
  }
  return { cwd, home };
}

function resolve(input: Partial<ConfigInput> = {}): Promise<ProviderConfig> {
  return resolveProviderConfig({ flags: {}, env: {}, ...place(), ...input });
}

async function configError(input: Partial<ConfigInput>): Promise<string> {
  try {
    await resolve(input);
  } catch (error) {
    assert.equal((error as { kind?: string }).kind, "config");
    assert.doesNotMatch((error as Error).message, /\n/);
    return (error as Error).message;
  }
  throw new Error("expected a config error");
}

const openai = (config: ProviderConfig) => {
  assert.equal(config.provider, "openai");
  return config as Extract<ProviderConfig, { provider: "openai" }>;
};

describe("provider config: defaults", () => {
  test("nothing set: offline", async () => {
    assert.deepEqual(await resolve(), {
      provider: "offline",
      source: { file: null, settings: { provider: "default" } },
    });
  });

  test("a base URL implies openai; a model is then required", async () => {
    const config = openai(
      await resolve({ flags: { baseUrl: "http://127.0.0.1:11434/v1/", model: "llama3.1" } }),
    );
    assert.equal(config.baseUrl, "http://127.0.0.1:11434/v1", "trailing slash dropped");
    assert.equal(config.model, "llama3.1");
    assert.equal(config.apiKey, undefined, "a local server needs no key");
    assert.equal(config.source.settings.provider, "--base-url (implied)");
    assert.equal(
      await configError({ flags: { baseUrl: "http://127.0.0.1:11434/v1" } }),
      "--model is required with --base-url; e.g. llama3.1 for Ollama.",
    );
  });

  test("--provider offline wins over a base URL", async () => {
    const config = await resolve({ flags: { provider: "offline", baseUrl: "http://127.0.0.1:1/v1" } });
    assert.equal(config.provider, "offline");
  });

  test("openai without a base URL: api.openai.com, which needs a key", async () => {
    const config = openai(
      await resolve({ flags: { provider: "openai", model: "gpt-4o-mini" }, env: { OPENAI_API_KEY: "sk-x" } }),
    );
    assert.equal(config.baseUrl, "https://api.openai.com/v1");
    assert.equal(config.source.settings.baseUrl, "default");
    assert.equal(config.source.settings.apiKey, "OPENAI_API_KEY");
    assert.match(
      await configError({ flags: { provider: "openai", model: "gpt-4o-mini" } }),
      /^The server at https:\/\/api\.openai\.com\/v1 needs an API key: set TALEFORGE_API_KEY or OPENAI_API_KEY/,
    );
    assert.match(
      await configError({ flags: { provider: "openai" } }),
      /^--model is required with the openai provider/,
    );
  });

  test("OPENAI_BASE_URL fills in the base URL but does not switch away from offline on its own", async () => {
    const env = { OPENAI_BASE_URL: "http://127.0.0.1:8080/v1" };
    assert.equal((await resolve({ env })).provider, "offline");
    const config = openai(
      await resolve({ env: { ...env, TALEFORGE_PROVIDER: "openai", TALEFORGE_MODEL: "m" } }),
    );
    assert.equal(config.baseUrl, "http://127.0.0.1:8080/v1");
  });

  test("timeouts are seconds everywhere, milliseconds in the config", async () => {
    const base = { baseUrl: "http://127.0.0.1:1/v1", model: "m" };
    assert.equal(openai(await resolve({ flags: { ...base, timeout: "90" } })).timeoutMs, 90_000);
    assert.equal(openai(await resolve({ flags: base, env: { TALEFORGE_TIMEOUT: "2.5" } })).timeoutMs, 2_500);
    assert.equal(openai(await resolve({ flags: base })).timeoutMs, undefined);
    assert.equal(
      await configError({ flags: { ...base, timeout: "soon" } }),
      'The timeout "soon" (from --timeout) must be a number of seconds > 0, e.g. 120.',
    );
  });
});

describe("provider config: precedence", () => {
  const file = {
    provider: "openai",
    baseUrl: "http://file:1/v1",
    model: "file-model",
    apiKey: "file-key",
    embeddingModel: "file-embed",
    timeout: 30,
  };

  test("flags > environment > config file, setting by setting", async () => {
    const where = place({ "work/taleforge.config.json": file });
    const config = openai(
      await resolveProviderConfig({
        ...where,
        flags: { model: "flag-model" },
        env: {
          TALEFORGE_BASE_URL: "http://env:2/v1",
          TALEFORGE_API_KEY: "env-key",
          OPENAI_API_KEY: "openai-key",
        },
      }),
    );
    assert.deepEqual(
      { ...config, source: undefined },
      {
        provider: "openai",
        baseUrl: "http://env:2/v1",
        model: "flag-model",
        apiKey: "env-key",
        embeddingModel: "file-embed",
        timeoutMs: 30_000,
        source: undefined,
      },
    );
    assert.equal(config.source.file, join(where.cwd, "taleforge.config.json"));
    assert.deepEqual(config.source.settings, {
      provider: "config file",
      baseUrl: "TALEFORGE_BASE_URL",
      model: "--model",
      apiKey: "TALEFORGE_API_KEY",
      embeddingModel: "config file",
      timeout: "config file",
    });
  });

  test("OPENAI_API_KEY and OPENAI_BASE_URL are fallbacks after TALEFORGE_*", async () => {
    const config = openai(
      await resolve({
        flags: { provider: "openai", model: "m" },
        env: { OPENAI_API_KEY: "o", OPENAI_BASE_URL: "http://o:1/v1", TALEFORGE_BASE_URL: "http://t:1/v1" },
      }),
    );
    assert.equal(config.baseUrl, "http://t:1/v1");
    assert.equal(config.apiKey, "o");
  });

  test("empty values count as unset", async () => {
    const config = await resolve({ flags: { baseUrl: "" }, env: { TALEFORGE_BASE_URL: "  " } });
    assert.equal(config.provider, "offline");
  });

  test("config file places: --config, else the working directory, else ~/.config/taleforge (or $XDG_CONFIG_HOME)", async () => {
    const where = place({
      "work/taleforge.config.json": { baseUrl: "http://cwd:1/v1", model: "cwd" },
      "home/.config/taleforge/config.json": { baseUrl: "http://home:1/v1", model: "home" },
      "work/other.json": { baseUrl: "http://other:1/v1", model: "other" },
      "xdg/taleforge/config.json": { baseUrl: "http://xdg:1/v1", model: "xdg" },
    });
    const model = async (flags: ConfigInput["flags"], cwd = where.cwd, env: ConfigInput["env"] = {}) =>
      openai(await resolveProviderConfig({ flags, env, cwd, home: where.home })).model;
    assert.equal(await model({ config: "other.json" }), "other");
    assert.equal(await model({}), "cwd");
    assert.equal(await model({}, where.home), "home");
    assert.equal(await model({}, where.home, { XDG_CONFIG_HOME: join(where.home, "..", "xdg") }), "xdg");
  });
});

describe("provider config: errors", () => {
  test("unknown provider, with a suggestion", async () => {
    assert.equal(
      await configError({ flags: { provider: "openia" } }),
      'Unknown provider "openia" (from --provider). Did you mean "openai"? Use offline or openai.',
    );
  });

  test("the base URL must be http(s)", async () => {
    for (const url of ["localhost:11434", "ftp://x/v1", "not a url"])
      assert.match(
        await configError({ flags: { baseUrl: url, model: "m" } }),
        new RegExp(
          `^The base URL "${url}" \\(from --base-url\\) is not an http\\(s\\) URL; e\\.g\\. http://127\\.0\\.0\\.1:11434/v1\\.$`,
        ),
      );
    assert.match(
      await configError({ env: { TALEFORGE_BASE_URL: "127.0.0.1:8080" }, flags: { model: "m" } }),
      /\(from TALEFORGE_BASE_URL\)/,
    );
  });

  test("a missing --config file", async () => {
    const where = place();
    assert.equal(
      await configError({ ...where, flags: { config: "nope.json" } }),
      `The config file ${join(where.cwd, "nope.json")} does not exist (from --config).`,
    );
  });

  test("a file that is not JSON names the file, line and column, and never shows its text", async () => {
    const where = place({
      "work/taleforge.config.json": '{\n  "apiKey": "sk-secret-value"\n  "model": "m"\n}',
    });
    const message = await configError(where);
    assert.equal(message, `${join(where.cwd, "taleforge.config.json")}:3:3: not valid JSON (CommaExpected).`);
  });

  test("a bad field names the file and the field; an unknown one suggests the right name", async () => {
    const path = (where: { cwd: string }) => join(where.cwd, "taleforge.config.json");
    let where = place({ "work/taleforge.config.json": { timeout: "60" } });
    assert.equal(
      await configError(where),
      `${path(where)}: "timeout" must be a number of seconds > 0 (got "60").`,
    );
    where = place({ "work/taleforge.config.json": { provider: "ollama" } });
    assert.equal(
      await configError(where),
      `${path(where)}: "provider" must be "offline" or "openai" (got "ollama").`,
    );
    where = place({ "work/taleforge.config.json": { base_url: "http://x/v1" } });
    assert.match(
      await configError(where),
      /: unknown field "base_url"\. Did you mean "baseUrl"\? Fields: provider, baseUrl/,
    );
    where = place({ "work/taleforge.config.json": ["x"] });
    assert.match(await configError(where), /: must hold one JSON object/);
  });

  test("the API key never appears in a message", async () => {
    const secret = "sk-very-secret-123";
    const where = place({ "work/taleforge.config.json": { apiKey: 12345 } });
    const message = await configError(where);
    assert.equal(message, `${join(where.cwd, "taleforge.config.json")}: "apiKey" must be a string.`);
    const messages = [
      await configError({ flags: { apiKey: secret, baseUrl: "http://x:1/v1" } }),
      await configError({ flags: { apiKey: secret, provider: "bogus" } }),
      await configError({ env: { TALEFORGE_API_KEY: secret }, flags: { baseUrl: "nope", model: "m" } }),
    ];
    for (const m of messages) assert.ok(!m.includes(secret), m);
    const config = await resolve({ flags: { apiKey: secret, baseUrl: "http://x:1/v1", model: "m" } });
    const line = describeProviderConfig(config);
    assert.equal(line, 'openai: model "m" at http://x:1/v1, key from --api-key');
    assert.ok(!JSON.stringify(config.source).includes(secret));
  });
});
