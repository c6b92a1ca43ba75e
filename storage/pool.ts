// The service's pg pool. Every error a connection or a query raises crosses into the service through its
// client class, where storage/unavailable.ts turns a lost, refused or timed-out database into a typed
// DatabaseUnavailableError; SQL errors (constraint violations and the like) pass through untouched.
import pg from "pg";
import { asDatabaseError } from "./unavailable";

type Callback = (error: unknown, ...rest: unknown[]) => void;

/** Calls `method` with `args`, classifying the error it reports by callback or by promise. */
function classified(method: (...args: unknown[]) => unknown, self: unknown, args: unknown[]): unknown {
  const last = args.at(-1);
  if (typeof last === "function") {
    const callback = last as Callback;
    return method.apply(self, [
      ...args.slice(0, -1),
      (error: unknown, ...rest: unknown[]) => callback(error ? asDatabaseError(error) : error, ...rest),
    ]);
  }
  const result = method.apply(self, args);
  return result instanceof Promise
    ? result.catch((error: unknown) => {
        throw asDatabaseError(error);
      })
    : result;
}

type Method = (...args: unknown[]) => unknown;

/** `base`'s connect and query, each reporting its errors classified. */
function classifying(base: { connect: unknown; query: unknown }) {
  const { connect, query } = base as { connect: Method; query: Method };
  return {
    connect(this: unknown, ...args: unknown[]) {
      return classified(connect, this, args);
    },
    query(this: unknown, ...args: unknown[]) {
      return classified(query, this, args);
    },
  };
}

// Both levels: a checked-out client's own queries, and the pool's, whose failures may arrive through the
// client's 'error' event (a connection lost mid-query) rather than through the client's query.
class ServiceClient extends pg.Client {}
Object.assign(ServiceClient.prototype, classifying(pg.Client.prototype));
class ServicePool extends pg.Pool {}
Object.assign(ServicePool.prototype, classifying(pg.Pool.prototype));

/** A pg pool whose errors are classified as they enter the service (see storage/unavailable.ts). */
export function createPool(config: Omit<pg.PoolConfig, "Client">): pg.Pool {
  return new ServicePool({ ...config, Client: ServiceClient });
}
