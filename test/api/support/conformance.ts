// Checks a response against the service's own OpenAPI document: the operation must document the status, and a
// JSON body must validate against the documented schema (JSON Schema 2020-12, as OpenAPI 3.1 uses).
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import { expect } from "chai";

interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
  components: { schemas: Record<string, object> };
}

function templateMatches(template: string, path: string): boolean {
  const pattern = new RegExp(`^${template.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`);
  return pattern.test(path);
}

export class Conformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    this.ajv.addSchema({ $id: "components", components: document.components });
  }

  /** Asserts the response is documented and its body matches; `path` is the request path under /api. */
  check(method: string, path: string, status: number, body: unknown): void {
    const pathOnly = path.split("?")[0] as string;
    const template = Object.keys(this.document.paths).find((candidate) =>
      templateMatches(candidate, pathOnly),
    );
    expect(template, `${method} ${pathOnly} is not in the OpenAPI document`).to.be.a("string");
    const operation = this.document.paths[template as string]?.[method.toLowerCase()];
    expect(operation, `${method} ${template} is not in the OpenAPI document`).to.not.equal(undefined);
    const response = operation?.responses[String(status)];
    expect(response, `${method} ${template} does not document status ${status}`).to.not.equal(undefined);
    const schema = response?.content?.["application/json"]?.schema;
    if (schema === undefined) return;
    const key = `${method} ${template} ${status}`;
    let validate = this.validators.get(key);
    if (validate === undefined) {
      const rewritten = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', '"components#/components/'),
      );
      validate = this.ajv.compile(rewritten);
      this.validators.set(key, validate);
    }
    this.expectValid(key, validate, body);
  }

  /** Asserts a delivered webhook envelope matches components.schemas WebhookEvent_<its type>. */
  checkWebhookEvent(envelope: { type: string }): void {
    const key = `WebhookEvent_${envelope.type}`;
    expect(this.document.components.schemas[key], `${key} is not in the OpenAPI document`).to.be.an("object");
    let validate = this.validators.get(key);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `components#/components/schemas/${key}` });
      this.validators.set(key, validate);
    }
    this.expectValid(key, validate, envelope);
  }

  private expectValid(key: string, validate: ValidateFunction, body: unknown): void {
    const valid = validate(body);
    expect(
      valid,
      `${key}: ${this.ajv.errorsText(validate.errors)}\n${String(JSON.stringify(body)).slice(0, 500)}`,
    ).to.equal(true);
  }
}
