// Assertions on failures as an Anchor client sees them: an AnchorError decoded from the program's logs.
import { AnchorError } from "@coral-xyz/anchor";
import { expect } from "chai";

/** Awaits `action`, expects it to fail with the program's custom error `code`, returns the error. */
export async function expectProgramError(action: Promise<unknown>, code: string): Promise<AnchorError> {
  try {
    await action;
  } catch (error) {
    if (!(error instanceof AnchorError)) {
      throw new Error(
        `expected AnchorError ${code}, got: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    expect(error.error.errorCode.code).to.equal(code);
    return error;
  }
  expect.fail(`expected the program to fail with ${code}, but it succeeded`);
}

/** Awaits `action`, expects a runtime (non-Anchor) failure whose message matches `pattern`. */
export async function expectRuntimeError(action: Promise<unknown>, pattern: RegExp): Promise<void> {
  try {
    await action;
  } catch (error) {
    expect(error instanceof Error ? error.message : String(error)).to.match(pattern);
    return;
  }
  expect.fail(`expected a failure matching ${pattern}, but it succeeded`);
}
