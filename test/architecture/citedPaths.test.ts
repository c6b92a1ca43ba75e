// Docs that say what is: every repository path the docs, the READMEs and the code's comments cite exists.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { citations, citationsIn, exists, linksIn } from "./citedPaths";
import { ROOT } from "./importGraph";

describe("architecture: cited repository paths exist", () => {
  it("finds a broken citation, and takes modules, file-name prefixes and placeholders for what they are", () => {
    const root = mkdtempSync(join(tmpdir(), "cited-"));
    try {
      mkdirSync(join(root, "storage", "migrations"), { recursive: true });
      writeFileSync(join(root, "storage", "domainEvents.ts"), "");
      writeFileSync(join(root, "storage", "migrations", "0019_lists.sql"), "");
      expect(exists(root, "storage/domainEvents")).to.equal(true);
      expect(exists(root, "storage/migrations/0019")).to.equal(true);
      expect(exists(root, "storage/domainEvents.ts")).to.equal(true);
      expect(exists(root, "storage/inbox.ts")).to.equal(false);
      expect(exists(root, "storage/migrations/0020")).to.equal(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    const text =
      "see `services/<context>/index.ts`, services/webhooks/claims.ts and https://x.io/services/a.ts";
    expect(citationsIn(text, ["services"]).map((found) => found.path)).to.deep.equal([
      "services/webhooks/claims.ts",
    ]);
    expect(linksIn("[a](chains.md#x), [b](https://x.io/a.md), [c](../api/app.ts)")).to.deep.equal([
      { index: 2, target: "chains.md" },
      { index: 44, target: "../api/app.ts" },
    ]);
  });

  it("every path cited in docs/*.md, the READMEs and code comments exists", () => {
    const broken = citations(ROOT)
      .filter((citation) => !exists(ROOT, citation.path))
      .map((citation) => `${citation.file}:${citation.line} cites ${citation.path}, which does not exist`);
    expect(broken).to.deep.equal([]);
  });
});
