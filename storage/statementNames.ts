// Prepared statement names belong to a connection in Postgres, but every connection to the embedded server
// shares PGlite's one session: the same name prepared by two connections would collide ("prepared statement
// already exists"), and one connection's Bind could run another's statement. So the session queue gives each
// connection names of its own: a frontend message's statement name gets the connection's prefix. The unnamed
// statement ("") stays as it is; the queue keeps a connection's turn from Parse to Sync for it. Portal names
// are left alone: a portal lives no longer than its connection's turn (the Sync or the transaction).

const [PARSE, BIND, DESCRIBE, CLOSE] = ["P", "B", "D", "C"].map((type) => type.charCodeAt(0));
const STATEMENT = "S".charCodeAt(0);

/** The session-wide name of `connection`'s statement `name`. */
export function sessionStatementName(connection: number, name: string): string {
  return `c${connection}:${name}`;
}

/** Where a frontend message's statement name starts, or undefined when it names no statement. */
function statementNameOffset(message: Uint8Array): number | undefined {
  const type = message[0];
  // Each message: type byte, int32 length, body.
  if (type === PARSE) return 5;
  if (type === BIND) {
    const portalEnd = message.indexOf(0, 5);
    return portalEnd === -1 ? undefined : portalEnd + 1;
  }
  if ((type === DESCRIBE || type === CLOSE) && message[5] === STATEMENT) return 6;
  return undefined;
}

export interface NamedMessage {
  /** The message with the connection's name in place of the client's. */
  message: Uint8Array;
  /** The session-wide name, or undefined for a message that names no statement (or the unnamed one). */
  name: string | undefined;
}

/** `message` with its statement name (if any) made `connection`'s own. */
export function withConnectionStatementName(connection: number, message: Uint8Array): NamedMessage {
  const start = statementNameOffset(message);
  if (start === undefined) return { message, name: undefined };
  const end = message.indexOf(0, start);
  if (end === -1 || end === start) return { message, name: undefined };
  const name = sessionStatementName(connection, Buffer.from(message.subarray(start, end)).toString("utf8"));
  const encoded = Buffer.from(name, "utf8");
  const rewritten = Buffer.alloc(message.length - (end - start) + encoded.length);
  rewritten[0] = message[0] as number;
  rewritten.writeInt32BE(rewritten.length - 1, 1);
  rewritten.set(message.subarray(5, start), 5);
  encoded.copy(rewritten, start);
  rewritten.set(message.subarray(end), start + encoded.length);
  return { message: rewritten, name };
}

/** Whether `message` is a Parse (it prepares the statement it names) or a Close of a statement. */
export function isParse(message: Uint8Array): boolean {
  return message[0] === PARSE;
}

export function isStatementClose(message: Uint8Array): boolean {
  return message[0] === CLOSE && message[5] === STATEMENT;
}

/** A simple Query message that drops the session-wide statement `name` (an identifier, quoted). */
export function deallocateMessage(name: string): Uint8Array {
  const text = Buffer.from(`DEALLOCATE "${name.replaceAll('"', '""')}"\0`, "utf8");
  const message = Buffer.alloc(5 + text.length);
  message.write("Q", 0, "latin1");
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
}
