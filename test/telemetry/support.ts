// Reading Prometheus' text format in tests: one sample's value by name and labels.
import { request } from "node:http";

/** The value of the sample `name{labels}` (labels matched exactly, in any order); undefined when absent. */
export function sampleValue(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    const wanted = Object.entries(labels);
    if (wanted.length === Object.keys(found).length && wanted.every(([key, value]) => found[key] === value)) {
      return Number(match[3]);
    }
  }
  return undefined;
}

export async function get(url: string): Promise<{ status: number; text: string; type: string }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, text, type: String(res.headers["content-type"] ?? "") }),
      );
    })
      .on("error", reject)
      .end();
  });
}
