// The logger every role uses: JSON lines at LOG_LEVEL, redaction of secret fields by path, a scrub of
// secret-shaped strings and registered secrets everywhere (messages, fields, errors), readable terminal lines.
import { expect } from "chai";
import { registerSecret, scrubSecrets } from "../../telemetry/log";
import { prettyLine } from "../../telemetry/pretty";
import { memoryLogger } from "../support/logs";

const API_KEY = "svc_live_Qm9vT2ZhU2VjcmV0S2V5VGhhdE11c3ROb3RMZWFrMDEyMzQ1";
const SANDBOX_KEY = "svc_sbx_c2FuZGJveFNlY3JldEtleVRoYXRNdXN0Tm90TGVhazAxMjM0";
const SIGNING_SECRET = "svc_sigsec_c2lnbmluZ1NlY3JldFRoYXRNdXN0Tm90TGVhazAxMjM0NTY3";
const WEBHOOK_SECRET = "whsec_d2ViaG9va1NlY3JldFRoYXRNdXN0Tm90TGVhaw+/abc=";

describe("telemetry: the logger", () => {
  it("writes one JSON object per line with level, time, bindings and message", () => {
    const logs = memoryLogger("info");
    logs.log.child({ role: "api" }).child({ component: "http" }).info({ status: 200 }, "answered");
    const [line] = logs.lines();
    const record = JSON.parse(line ?? "{}") as Record<string, unknown>;
    expect(record).to.include({
      level: "info",
      role: "api",
      component: "http",
      status: 200,
      msg: "answered",
    });
    expect(record.time).to.be.a("string");
    expect(line?.endsWith("\n")).to.equal(true);
  });

  it("honours the level: debug lines are dropped at info and kept at debug", () => {
    const atInfo = memoryLogger("info");
    atInfo.log.debug("hidden");
    atInfo.log.info("shown");
    expect(atInfo.messages()).to.deep.equal(["shown"]);
    const atDebug = memoryLogger("debug");
    atDebug.log.debug("kept");
    expect(atDebug.messages()).to.deep.equal(["kept"]);
  });

  it("censors secret fields by name, at the top and one level down, and Authorization headers", () => {
    const logs = memoryLogger();
    logs.log.info(
      {
        apiKey: "opaque-value-1",
        signingSecret: "opaque-value-2",
        masterKey: "opaque-value-3",
        endpoint: { secret: "opaque-value-4" },
        headers: { authorization: "opaque-value-5", host: "api.test" },
      },
      "fields",
    );
    const text = logs.lines().join("");
    for (const value of [
      "opaque-value-1",
      "opaque-value-2",
      "opaque-value-3",
      "opaque-value-4",
      "opaque-value-5",
    ]) {
      expect(text).not.to.contain(value);
    }
    expect(text).to.contain("[redacted]").and.contain("api.test");
  });

  it("scrubs secret-shaped strings from messages, any field, arrays and error messages and stacks", () => {
    const logs = memoryLogger();
    logs.log.info(`pasted ${API_KEY} and ${WEBHOOK_SECRET}`);
    logs.log.warn({ note: { deep: [`Bearer ${SANDBOX_KEY}`] } }, "nested");
    logs.log.error({ err: new Error(`sealing ${SIGNING_SECRET} failed`) }, "failed");
    logs.log.error(new Error(`thrown with ${API_KEY}`));
    const text = logs.lines().join("");
    for (const secret of [API_KEY, SANDBOX_KEY, SIGNING_SECRET, WEBHOOK_SECRET])
      expect(text).not.to.contain(secret);
    expect(text).to.contain("svc_live_[redacted]").and.contain("whsec_[redacted]").and.contain("sealing");
  });

  it("scrubs a registered secret value (the master key) wherever it appears", () => {
    const masterKey = Buffer.alloc(32, 9).toString("base64");
    registerSecret(masterKey);
    const logs = memoryLogger();
    logs.log.info({ config: { key: masterKey } }, `key is ${masterKey}`);
    expect(logs.lines().join("")).not.to.contain(masterKey);
    expect(scrubSecrets(`x${masterKey}y`)).to.equal("x[redacted]y");
  });

  it("leaves ordinary text alone", () => {
    expect(scrubSecrets("listening on http://127.0.0.1:8787 (chains: hardhat)")).to.equal(
      "listening on http://127.0.0.1:8787 (chains: hardhat)",
    );
  });

  it("formats a readable terminal line: time, level, role/component, message, other fields", () => {
    const line = prettyLine(
      JSON.stringify({
        level: "warn",
        time: "2026-01-02T03:04:05.678Z",
        role: "worker",
        component: "jobs",
        msg: "slow",
        ms: 12,
      }),
      false,
    );
    expect(line).to.equal('03:04:05.678 WARN  [worker/jobs] slow {"ms":12}');
  });
});
