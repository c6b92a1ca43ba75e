import { expect } from "chai";
import { deallocateMessage, withConnectionStatementName } from "../../storage/statementNames";

/** A frontend message: type, int32 length (itself included), body. */
function message(type: string, ...parts: (string | Buffer)[]): Buffer {
  const body = Buffer.concat(
    parts.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : part)),
  );
  const header = Buffer.alloc(5);
  header.write(type, 0, "latin1");
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

const TAIL = Buffer.from([0, 1, 0, 0, 0, 23]); // a Parse's parameter types, a Bind's formats: kept byte for byte

describe("storage: statement names of a connection on the embedded server", () => {
  it("prefixes the statement a Parse, a Bind, a Describe and a Close name, and keeps the rest of the message", () => {
    const cases = [
      [message("P", "stmt\0", "SELECT $1\0", TAIL), message("P", "c7:stmt\0", "SELECT $1\0", TAIL)],
      [message("B", "portal\0", "stmt\0", TAIL), message("B", "portal\0", "c7:stmt\0", TAIL)],
      [message("D", "S", "stmt\0"), message("D", "S", "c7:stmt\0")],
      [message("C", "S", "stmt\0"), message("C", "S", "c7:stmt\0")],
    ];
    for (const [sent, run] of cases) {
      const named = withConnectionStatementName(7, sent as Buffer);
      expect(Buffer.from(named.message).equals(run as Buffer), (sent as Buffer).toString("latin1")).to.equal(
        true,
      );
      expect(named.name).to.equal("c7:stmt");
    }
  });

  it("leaves the unnamed statement, portals and other messages as they are", () => {
    const untouched = [
      message("P", "\0", "SELECT 1\0", TAIL),
      message("B", "portal\0", "\0", TAIL),
      message("D", "P", "portal\0"),
      message("C", "P", "portal\0"),
      message("E", "\0", Buffer.alloc(4)),
      message("Q", "SELECT 1\0"),
      message("S"),
    ];
    for (const sent of untouched) {
      const named = withConnectionStatementName(7, sent);
      expect(named.message).to.equal(sent);
      expect(named.name).to.equal(undefined);
    }
  });

  it("drops a statement by its quoted name", () => {
    expect(Buffer.from(deallocateMessage('c7:a"b')).equals(message("Q", 'DEALLOCATE "c7:a""b"\0'))).to.equal(
      true,
    );
  });
});
