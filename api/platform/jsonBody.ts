// Reads a request's JSON body: the one body rule of the API, applied to every route and page through
// readRequestInput (platform/inputRule), which adds the text and nesting rule. UTF-8
// JSON objects or arrays only, bounded in size, never compressed. A body that is not declared as JSON is
// not read (undefined), so the route's own validation names the missing fields.
import { isUtf8 } from "node:buffer";
import type { IncomingMessage } from "node:http";
import { parse as parseContentType } from "content-type";
import { ApiError } from "../../core/errors/catalogue";

/** Whether the request carries a body at all (a length, even 0, or chunked framing). */
function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || req.headers["content-length"] !== undefined;
}

/** The declared charset when the body is declared as JSON; null when it is not JSON. */
function jsonCharsetOf(req: IncomingMessage): string | undefined | null {
  const header = req.headers["content-type"];
  if (header === undefined) return null;
  try {
    const { type, parameters } = parseContentType(header);
    return type === "application/json" ? (parameters.charset?.toLowerCase() ?? undefined) : null;
  } catch {
    return null;
  }
}

/** Reads the rest of the body and throws `error` once it has ended, so the answer can reuse the connection. */
function drainThenThrow(req: IncomingMessage, error: ApiError): Promise<never> {
  return new Promise((_, reject) => {
    if (req.complete) {
      reject(error);
      return;
    }
    req.once("end", () => reject(error));
    req.once("error", () => reject(error));
    req.resume();
  });
}

function readLimited(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const off = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("aborted", onAborted);
      req.off("error", onAborted);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) {
        off();
        drainThenThrow(req, tooLarge(limitBytes)).catch(reject);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      off();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received));
    };
    const onAborted = () => {
      off();
      reject(new ApiError("invalid_request", "The request body ended early."));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("aborted", onAborted);
    req.on("error", onAborted);
  });
}

const tooLarge = (limitBytes: number) =>
  new ApiError(
    "payload_too_large",
    `The request body is larger than the ${limitBytes} bytes this API accepts.`,
  );

const notJson = () =>
  new ApiError(
    "invalid_request",
    "The request body is not valid JSON. Send a JSON object with Content-Type: application/json.",
  );

// Decoding would turn bytes that are not UTF-8 (an encoded lone surrogate, say) into U+FFFD silently.
const notUtf8 = () =>
  new ApiError(
    "invalid_request",
    "The request body is not valid UTF-8 (it may encode a lone surrogate); send the JSON encoded as UTF-8.",
  );

/** The parsed body, `{}` for an empty JSON body, or undefined when the request declares no JSON body. */
export async function readJsonBody(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  if (!hasBody(req)) return undefined;
  const charset = jsonCharsetOf(req);
  if (charset === null) return undefined;
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    return drainThenThrow(req, new ApiError("unsupported_media_type"));
  }
  const encoding = req.headers["content-encoding"]?.toLowerCase() ?? "identity";
  if (encoding !== "identity") {
    return drainThenThrow(
      req,
      new ApiError(
        "unsupported_media_type",
        `Content-Encoding ${encoding} is not accepted; send the body uncompressed.`,
      ),
    );
  }
  if (Number(req.headers["content-length"]) > limitBytes) return drainThenThrow(req, tooLarge(limitBytes));
  const bytes = await readLimited(req, limitBytes);
  if (!isUtf8(bytes)) throw notUtf8();
  const text = bytes.toString("utf8");
  if (text.length === 0) return {};
  // Strict: only an object or an array is a body (as in JSON APIs generally); a bare scalar is refused.
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") throw notJson();
  try {
    return JSON.parse(text);
  } catch {
    throw notJson();
  }
}
