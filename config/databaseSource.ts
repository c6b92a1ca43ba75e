// Which database a process opens: chosen by configuration (DATABASE_URL or the embedded default), opened by
// storage/database.ts.
export type DatabaseSource =
  /**
   * `schema`, when given, is created if missing and set as every connection's search_path. Tests use it to
   * isolate themselves. On the embedded server all connections share one session, so only one schema can be
   * in use there at a time.
   */
  | { kind: "postgres"; url: string; schema?: string }
  | { kind: "embedded"; dataDir: string; host: string; port: number };
