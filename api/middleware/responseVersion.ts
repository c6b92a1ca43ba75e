import type { NextFunction, Request, Response } from "express";
import { RESPONSE_VERSION } from "../responseVersion";

/** Adds `responseVersion` to every JSON object body, so no route can forget it. */
export function responseVersion(_req: Request, res: Response, next: NextFunction): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) =>
    json(
      body && typeof body === "object" && !Array.isArray(body)
        ? { ...body, responseVersion: RESPONSE_VERSION }
        : body,
    );
  next();
}
