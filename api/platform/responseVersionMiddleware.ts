import type { NextFunction, Request, Response } from "express";
import { versioned } from "./responseVersion";

/** Adds `responseVersion` to every JSON object body, so no route can forget it. */
export function responseVersion(_req: Request, res: Response, next: NextFunction): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => json(versioned(body));
  next();
}
