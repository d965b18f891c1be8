import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { closeSandbox, dropStore, type Running, startServer } from "./harness.ts";

/** A GET with the path sent as written (a URL string would have its dot segments resolved first). */
function rawGet(base: string, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    http
      .get({ hostname, port, path }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      })
      .on("error", reject);
  });
}

/** The browser app's files at `/`: content types, caching, the page's policy, and no way out of the folder. */
describe("server: serves the built browser app", () => {
  let running: Running;
  let missing: Running;
  let web: string;
  before(async () => {
    web = mkdtempSync(join(tmpdir(), "taleforge-web-"));
    mkdirSync(join(web, "assets"));
    writeFileSync(
      join(web, "index.html"),
      '<!doctype html><script type="module" src="/assets/app-1.js"></script>',
    );
    writeFileSync(join(web, "assets", "app-1.js"), "console.log(1)");
    writeFileSync(join(web, "assets", "app-1.css"), "body{}");
    writeFileSync(join(web, "secret.txt"), "not an asset");
    [running, missing] = await Promise.all([
      startServer({ webRoot: web }),
      startServer({ webRoot: join(web, "nowhere") }),
    ]);
  });
  after(async () => {
    await Promise.all([running.close(), missing.close()]);
    await Promise.all([dropStore(running.where), dropStore(missing.where)]);
    rmSync(web, { recursive: true, force: true });
    await closeSandbox();
  });

  it("serves index.html uncached and the hashed assets for a year, with their types and the page's policy", async () => {
    const page = await fetch(`${running.url}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    assert.equal(page.headers.get("cache-control"), "no-cache");
    const policy = page.headers.get("content-security-policy") ?? "";
    assert.match(policy, /script-src 'self'/);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
    assert.match(await page.text(), /app-1\.js/);
    const script = await fetch(`${running.url}/assets/app-1.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get("content-type") ?? "", /^text\/javascript/);
    assert.match(script.headers.get("cache-control") ?? "", /max-age=31536000, immutable/);
    assert.match(
      (await fetch(`${running.url}/assets/app-1.css`)).headers.get("content-type") ?? "",
      /^text\/css/,
    );
  });

  it("serves nothing outside its assets folder, and the API keeps working", async () => {
    for (const path of [
      "/assets/..%2fsecret.txt",
      "/assets/%2e%2e%2fsecret.txt",
      "/assets/%2e%2e",
      "/assets/../secret.txt",
      "/assets/%2e%2e/secret.txt",
      "/secret.txt",
      "/assets/missing.js",
      "/assets/.hidden",
    ]) {
      const answer = await rawGet(running.url, path);
      assert.equal(answer.status, 404, path);
      assert.doesNotMatch(answer.text, /not an asset/, path);
    }
    assert.equal((await fetch(`${running.url}/openapi.json`)).status, 200);
    assert.equal((await fetch(`${running.url}/worlds`)).status, 200);
  });

  it("says how to build the app when it is not built", async () => {
    const page = await fetch(`${missing.url}/`);
    assert.equal(page.status, 503);
    assert.match(await page.text(), /npm run build/);
  });
});
