import { expect } from "chai";
import {
  ApiError,
  ERROR_CATALOGUE,
  errorEnvelope,
  errorStatus,
  isErrorCode,
} from "../../core/errors/catalogue";
import { ServiceError } from "../../core/errors/serviceError";

describe("error catalogue", () => {
  it("gives every code the spec names its stated HTTP status", () => {
    const specCodes = {
      invalid_request: 400,
      wallet_required: 400,
      invalid_wallet: 400,
      key_revoked: 401,
      webhook_not_found: 404,
      service_unavailable: 503,
    } as const;
    for (const [code, status] of Object.entries(specCodes))
      expect(errorStatus(code as keyof typeof specCodes), code).to.equal(status);
  });

  it("names the codes the spec leaves unstated: 401, 403, identity 404, 429, idempotency", () => {
    expect(errorStatus("unauthorized")).to.equal(401);
    expect(errorStatus("forbidden")).to.equal(403);
    expect(errorStatus("launch_reporting_restricted")).to.equal(403);
    expect(errorStatus("identity_not_found")).to.equal(404);
    expect(errorStatus("rate_limited")).to.equal(429);
    expect(errorStatus("idempotency_in_progress")).to.equal(409);
    expect(errorStatus("idempotency_key_reused")).to.equal(422);
  });

  it("uses snake_case codes, error statuses and a non-empty message for every entry", () => {
    for (const [code, spec] of Object.entries(ERROR_CATALOGUE)) {
      expect(code).to.match(/^[a-z]+(?:_[a-z]+)*$/);
      expect(spec.status).to.be.within(400, 599);
      expect(spec.message.length, code).to.be.greaterThan(10);
    }
  });

  it("builds the { error: { code, message, details } } envelope", () => {
    expect(errorEnvelope("wallet_required")).to.deep.equal({
      error: { code: "wallet_required", message: ERROR_CATALOGUE.wallet_required.message, details: null },
    });
    expect(
      errorEnvelope("invalid_request", "durationSeconds is required", { field: "durationSeconds" }),
    ).to.deep.equal({
      error: {
        code: "invalid_request",
        message: "durationSeconds is required",
        details: { field: "durationSeconds" },
      },
    });
  });

  it("carries status and envelope on ApiError", () => {
    const error = new ApiError("scope_missing", undefined, { requiredScope: "launch:validate" });
    expect(error).to.be.instanceOf(Error);
    expect(error.status).to.equal(403);
    expect(error.toEnvelope().error).to.deep.equal({
      code: "scope_missing",
      message: ERROR_CATALOGUE.scope_missing.message,
      details: { requiredScope: "launch:validate" },
    });
    expect(isErrorCode("rate_limited")).to.equal(true);
    expect(isErrorCode("toString")).to.equal(false);
  });
});

describe("ServiceError: the base of the service's errors", () => {
  class ExampleFailure extends ServiceError {}

  it("names each error after its class and keeps the error that caused it", () => {
    const cause = new Error("socket hang up");
    const error = new ExampleFailure("the example failed", { cause });
    expect(error.name).to.equal("ExampleFailure");
    expect(error.cause).to.equal(cause);
    expect(error).to.be.instanceOf(ServiceError).and.instanceOf(Error);
  });

  it("is the base of ApiError, so every API answer's error has a name of its own", () => {
    expect(new ApiError("invalid_request")).to.be.instanceOf(ServiceError);
    expect(new ApiError("invalid_request").name).to.equal("ApiError");
    expect(new ExampleFailure("no cause").cause).to.equal(undefined);
  });
});
