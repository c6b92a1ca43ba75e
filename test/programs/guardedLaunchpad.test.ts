// The guarded_launchpad reference program: a launch refuses a copycat itself. Registry-only (trustless):
// assert_launch_allowed by CPI. Signed: the service's Ed25519 decision, verified by the Ed25519 program and found by
// exact layout through the instructions sysvar, rebuilt from the launch's own accounts and arguments, by a decision
// signer the registry trusts now; plus the registry check. One test per attack (litesvm, real keypairs).
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BN, BorshCoder, type Idl } from "@coral-xyz/anchor";
import { Ed25519Program, Keypair, PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";
import { expect } from "chai";
import {
  LaunchDecisionFieldError,
  SOLANA_LAUNCH_DECISION_DOMAIN,
  SOLANA_LAUNCH_DECISION_OFFSETS,
  SOLANA_LAUNCH_DECISION_SIZE,
  type SolanaLaunchDecisionFields,
  solanaLaunchDecisionMessage,
} from "../../core/decision/onchain";
import { foldedHashBytes, foldV1 } from "../../core/fold";
import { buildProgram, sha256Hex } from "../../scripts/sbf/build";
import {
  buildLaunchpadIdl,
  LAUNCHPAD_ERRORS,
  LOCAL_LAUNCHPAD_PROGRAM_ID,
} from "../../scripts/solana/generate-launchpad-idl";
import { configAddress, loadIdl, PROGRAM_DIR, reservationAddress } from "../../scripts/solana/registry";
import { skipWithoutClang } from "../scripts/sbf/support";
import { deployCpiCaller, throughCaller } from "./support/cpiCaller";
import { expectProgramError } from "./support/errors";
import { DAY, fundedWallet, reserveCall, START_TIME, sendInstructions } from "./support/fixture";
import {
  DEVNET_GENESIS,
  decisionInstruction,
  deployedLaunchpad,
  deployLaunchpad,
  initializeMethod,
  instructionsSysvarData,
  LAUNCHPAD_DIR,
  LAUNCHPAD_IDL_PATH,
  LAUNCHPAD_SO_PATH,
  LAUNCHPAD_SOURCE_DIR,
  type LaunchPlan,
  type LaunchpadFixture,
  launchAccounts,
  launchInstruction,
  launchpadConfigAddress,
  loadLaunchpadIdl,
  MAINNET_GENESIS,
  planLaunch,
  plantLookupTable,
  registryOnlyInstruction,
  sendVersioned,
  signEd25519,
  signedLaunch,
} from "./support/launchpad";

const EXPIRES_IN = 600n;
const FREE_PAIR = { name: "Doge Coin", ticker: "DOGE" };
const HELD_PAIR = { name: "Pepe", ticker: "PEPE" };

type Key = TransactionInstruction["keys"][0];
function withKey(instruction: TransactionInstruction, index: number, change: Partial<Key>) {
  instruction.keys[index] = { ...(instruction.keys[index] as Key), ...change };
  return instruction;
}

/** An account at a fresh address holding `data`, owned by `owner`. */
function plantAccount(fixture: LaunchpadFixture, data: Uint8Array, owner: PublicKey): PublicKey {
  const address = Keypair.generate().publicKey;
  fixture.provider.svm.svm.setAccount({
    address: address.toBase58(),
    data,
    executable: false,
    lamports: 10_000_000n,
    programAddress: owner.toBase58(),
    space: BigInt(data.length),
  } as never);
  return address;
}

function accountData(fixture: LaunchpadFixture, address: PublicKey): Uint8Array {
  const account = fixture.provider.svm.svm.getAccount(address.toBase58() as never);
  if (!account.exists) throw new Error(`no account at ${address.toBase58()}`);
  return account.data;
}

/** Awaits a failure decoded from the logs and checks the program that logged it. */
async function expectErrorFrom(action: Promise<unknown>, code: string, program: PublicKey) {
  const error = await expectProgramError(action, code);
  expect(error.program.toBase58(), "the program that failed").to.equal(program.toBase58());
  return error;
}

/** One signature's 14-byte offsets record (after the count and padding bytes), with explicit instruction indices. */
function ed25519Header(offsets: {
  signature: number;
  signatureIndex: number;
  pubkey: number;
  pubkeyIndex: number;
  message: number;
  messageSize: number;
  messageIndex: number;
}): Buffer {
  const header = Buffer.alloc(14);
  [
    offsets.signature,
    offsets.signatureIndex,
    offsets.pubkey,
    offsets.pubkeyIndex,
    offsets.message,
    offsets.messageSize,
    offsets.messageIndex,
  ].forEach((value, index) => {
    header.writeUInt16LE(value, 2 * index);
  });
  return header;
}

const SELF = 0xffff;

describe("program: guarded_launchpad", () => {
  describe("build, IDL and layout", () => {
    const launchpadSource = (file: string) => readFileSync(join(LAUNCHPAD_SOURCE_DIR, file), "utf8");
    const registrySource = (file: string) => readFileSync(join(PROGRAM_DIR, "src", file), "utf8");

    /** `#define NAME value` macros (numbers, hex discriminators, and sums/products of earlier macros). */
    function macros(source: string): Map<string, bigint> {
      const values = new Map<string, bigint>();
      for (const match of source.matchAll(/^#define (\w+) (.+)$/gm)) {
        const [name, body] = [match[1] as string, (match[2] as string).trim()];
        const hex = /^0x([0-9a-f]+)ULL$/.exec(body);
        if (hex) {
          values.set(name, BigInt(`0x${hex[1]}`));
          continue;
        }
        const expression = body.replace(/[A-Z_][A-Z0-9_]*/g, (word) => String(values.get(word) ?? "NaN"));
        if (!/^[\d\s()+*-]+$/.test(expression) || /^0x/.test(body)) continue;
        values.set(name, BigInt(Function(`"use strict"; return (${expression});`)() as number));
      }
      return values;
    }
    const layout = macros(launchpadSource("layout.h"));
    const registryLayout = macros(registrySource("layout.h"));
    const discriminatorOf = (bytes: number[]) => Buffer.from(bytes).readBigUInt64LE();

    interface IdlField {
      name: string;
      type: unknown;
    }
    type IdlTypes = { name: string; type: { fields?: IdlField[] } }[];
    function fields(types: IdlTypes, name: string): IdlField[] {
      const found = types.find((type) => type.name === name)?.type.fields;
      if (!found) throw new Error(`no struct ${name}`);
      return found;
    }
    function borshSize(type: unknown): number {
      const primitive: Record<string, number> = { u8: 1, u16: 2, i64: 8, u64: 8, pubkey: 32 };
      if (typeof type === "string") return primitive[type] ?? Number.NaN;
      const array = (type as { array?: [unknown, number] }).array;
      return array ? borshSize(array[0]) * array[1] : Number.NaN;
    }
    /** Each field of `typeName` sits at `<prefix>_<FIELD>`, the last ends at `sizeMacro`. */
    function expectLayout(
      types: IdlTypes,
      typeName: string,
      prefix: string,
      start: number,
      sizeMacro: string,
      values = layout,
    ) {
      let offset = start;
      for (const field of fields(types, typeName)) {
        const macro = `${prefix}_${field.name.toUpperCase()}`;
        expect(Number(values.get(macro)), `${macro} (${typeName}.${field.name})`).to.equal(offset);
        offset += borshSize(field.type);
      }
      expect(Number(values.get(sizeMacro)), sizeMacro).to.equal(offset);
    }

    it("the committed guarded_launchpad.so is exactly what its sources build, and its .sha256 names those bytes", function () {
      const committed = readFileSync(LAUNCHPAD_SO_PATH);
      expect(readFileSync(`${LAUNCHPAD_SO_PATH}.sha256`, "utf8")).to.equal(
        `${sha256Hex(committed)}  guarded_launchpad.so\n`,
      );
      skipWithoutClang(this);
      expect(sha256Hex(buildProgram(LAUNCHPAD_SOURCE_DIR))).to.equal(sha256Hex(committed));
    });

    it("commits exactly what its IDL generator produces, for its committed local program keypair", () => {
      expect(loadLaunchpadIdl()).to.deep.equal(
        JSON.parse(JSON.stringify(buildLaunchpadIdl(LOCAL_LAUNCHPAD_PROGRAM_ID))),
      );
      const keypair = JSON.parse(
        readFileSync(join(LAUNCHPAD_DIR, "keys", "local-dev-program-keypair.json"), "utf8"),
      ) as number[];
      expect(Keypair.fromSecretKey(Uint8Array.from(keypair)).publicKey.toBase58()).to.equal(
        LOCAL_LAUNCHPAD_PROGRAM_ID,
      );
      expect(JSON.parse(readFileSync(LAUNCHPAD_IDL_PATH, "utf8")).address).to.equal(
        LOCAL_LAUNCHPAD_PROGRAM_ID,
      );
    });

    it("dispatches on the IDL's discriminators and writes its account discriminators; calls the registry's", () => {
      const idl = loadLaunchpadIdl() as unknown as Idl;
      for (const instruction of idl.instructions)
        expect(layout.get(`IX_${instruction.name.toUpperCase()}`), instruction.name).to.equal(
          discriminatorOf(instruction.discriminator),
        );
      expect(layout.get("ACCOUNT_LAUNCHPAD_CONFIG")).to.equal(
        discriminatorOf(
          idl.accounts?.find((account) => account.name === "LaunchpadConfig")?.discriminator ?? [],
        ),
      );
      expect(layout.get("ACCOUNT_LAUNCH")).to.equal(
        discriminatorOf(idl.accounts?.find((account) => account.name === "Launch")?.discriminator ?? []),
      );
      const registryIdl = loadIdl() as unknown as Idl; // the JSON: snake_case names
      expect(layout.get("REGISTRY_IX_ASSERT_LAUNCH_ALLOWED")).to.equal(
        discriminatorOf(
          registryIdl.instructions.find((ix) => ix.name === "assert_launch_allowed")?.discriminator ?? [],
        ),
      );
      expect(layout.get("REGISTRY_ACCOUNT_CONFIG")).to.equal(registryLayout.get("ACCOUNT_CONFIG"));
    });

    it("declares the same errors as errors.h, numbered from 6000", () => {
      const declared = [
        ...launchpadSource("errors.h").matchAll(/X\((\d+), (\w+),((?:\s*\\?\s*"[^"]*")+)\s*\)/g),
      ].map((match) => [
        Number(match[1]),
        match[2],
        [...(match[3] ?? "").matchAll(/"([^"]*)"/g)].map((part) => part[1]).join(""),
      ]);
      expect(declared).to.deep.equal(LAUNCHPAD_ERRORS);
      expect(LAUNCHPAD_ERRORS.map(([code]) => code)).to.deep.equal(LAUNCHPAD_ERRORS.map((_, i) => 6000 + i));
    });

    it("lays out its accounts and the decision message as the IDL types, and reads the registry's layouts as the registry writes them", () => {
      const types = loadLaunchpadIdl().types as unknown as IdlTypes;
      expectLayout(types, "LaunchpadConfig", "LAUNCHPAD_CONFIG", 8, "LAUNCHPAD_CONFIG_SIZE");
      expectLayout(types, "Launch", "LAUNCH", 8, "LAUNCH_SIZE");
      expectLayout(types, "LaunchDecisionMessage", "DECISION", 0, "DECISION_MESSAGE_SIZE");
      // The registry's LaunchCheck, its config's decision signer set.
      const registryTypes = loadIdl().types as unknown as IdlTypes;
      expectLayout(registryTypes, "LaunchCheck", "LAUNCH_CHECK", 0, "LAUNCH_CHECK_SIZE");
      expectLayout(
        registryTypes,
        "LaunchCheck",
        "LAUNCH_CHECK",
        0,
        "LAUNCH_CHECK_SIZE",
        macros(registrySource("launch_check.c")),
      );
      for (const name of ["CONFIG_DECISION_SIGNERS", "DECISION_SIGNER_COUNT", "CONFIG_SIZE"])
        expect(layout.get(`REGISTRY_${name}`), name).to.equal(registryLayout.get(name));
      for (const name of ["KEY", "VALID_FROM", "VALID_UNTIL", "SIZE"])
        expect(layout.get(`REGISTRY_DECISION_SIGNER_${name}`), name).to.equal(
          registryLayout.get(`DECISION_SIGNER_${name}`),
        );
    });

    it("encodes the decision message (core's encoder) byte for byte as the IDL's Borsh type, and refuses wrong sizes", () => {
      const keys = {
        registryProgram: Keypair.generate().publicKey,
        launchpadProgram: Keypair.generate().publicKey,
        launcher: Keypair.generate().publicKey,
        mint: Keypair.generate().publicKey,
      };
      const hashes = { nameHash: randomBytes(32), tickerHash: randomBytes(32) };
      const nonce = randomBytes(16);
      const fields: SolanaLaunchDecisionFields = {
        cluster: MAINNET_GENESIS,
        ...keys,
        ...hashes,
        decision: "allow",
        expiresAt: -2n,
        nonce,
      };
      const message = solanaLaunchDecisionMessage(fields);
      expect(message.length).to.equal(SOLANA_LAUNCH_DECISION_SIZE);
      const coder = new BorshCoder(loadLaunchpadIdl() as unknown as Idl);
      expect(
        coder.types.encode("LaunchDecisionMessage", {
          domain: Array.from(Buffer.from(SOLANA_LAUNCH_DECISION_DOMAIN)),
          cluster: Array.from(MAINNET_GENESIS),
          registry_program: keys.registryProgram,
          launchpad_program: keys.launchpadProgram,
          name_hash: Array.from(hashes.nameHash),
          ticker_hash: Array.from(hashes.tickerHash),
          launcher: keys.launcher,
          mint: keys.mint,
          decision: 1,
          expires_at: new BN(-2),
          nonce: Array.from(nonce),
        }),
      ).to.deep.equal(Buffer.from(message));
      expect(Buffer.from(message.subarray(0, 16)).toString("ascii")).to.equal("idprot/launch/v1");
      expect(message[SOLANA_LAUNCH_DECISION_OFFSETS.decision]).to.equal(1);
      expect(solanaLaunchDecisionMessage({ ...fields, decision: "block" })[240]).to.equal(0);
      for (const wrong of [
        { nonce: randomBytes(15) },
        { cluster: randomBytes(31) },
        { expiresAt: 2n ** 63n },
      ] as Partial<SolanaLaunchDecisionFields>[])
        expect(() => solanaLaunchDecisionMessage({ ...fields, ...wrong })).to.throw(LaunchDecisionFieldError);
    });

    it("web3.js lays a one-signature Ed25519 instruction out exactly as the program requires", () => {
      const signer = Keypair.generate();
      const message = randomBytes(SOLANA_LAUNCH_DECISION_SIZE);
      const data = decisionInstruction(signer, message).data;
      expect(Number(layout.get("ED25519_DATA_SIZE"))).to.equal(data.length);
      expect(data[0]).to.equal(1);
      expect(data.subarray(2, 16)).to.deep.equal(
        ed25519Header({
          signature: 48,
          signatureIndex: SELF,
          pubkey: 16,
          pubkeyIndex: SELF,
          message: 112,
          messageSize: 265,
          messageIndex: SELF,
        }),
      );
      expect(Number(layout.get("ED25519_PUBKEY"))).to.equal(16);
      expect(Number(layout.get("ED25519_SIGNATURE"))).to.equal(48);
      expect(Number(layout.get("ED25519_MESSAGE"))).to.equal(112);
      expect(data.subarray(16, 48)).to.deep.equal(signer.publicKey.toBuffer());
      expect(data.subarray(48, 112)).to.deep.equal(signEd25519(signer, message));
      expect(data.subarray(112)).to.deep.equal(message);
    });
  });

  describe("initialize", () => {
    it("stores the registry, its config PDA and the cluster; only once", async () => {
      const fixture = await deployedLaunchpad();
      const config = await fixture.launchpad.account.launchpadConfig.fetch(
        launchpadConfigAddress(fixture.launchpad.programId),
      );
      expect(config.admin.toBase58()).to.equal(fixture.admin.publicKey.toBase58());
      expect(config.registryProgram.toBase58()).to.equal(fixture.programId.toBase58());
      expect(config.registryConfig.toBase58()).to.equal(configAddress(fixture.programId).toBase58());
      expect(Buffer.from(config.cluster)).to.deep.equal(MAINNET_GENESIS);
      await expectProgramError(
        initializeMethod(fixture.launchpad, fixture.admin.publicKey, fixture.programId, DEVNET_GENESIS).rpc(),
        "AlreadyInitialized",
      );
    });

    it("refuses anyone but the upgrade authority (no front-running with another registry), a zero cluster and itself as registry", async () => {
      const fixture = await deployedLaunchpad();
      const launchpad = await deployLaunchpad(fixture.provider);
      const stranger = fundedWallet(fixture);
      await expectProgramError(
        initializeMethod(launchpad, stranger.publicKey, Keypair.generate().publicKey, MAINNET_GENESIS)
          .signers([stranger])
          .rpc(),
        "Unauthorized",
      );
      const admin = fixture.admin.publicKey;
      await expectProgramError(
        initializeMethod(launchpad, admin, fixture.programId, Buffer.alloc(32)).rpc(),
        "InvalidConfig",
      );
      await expectProgramError(
        initializeMethod(launchpad, admin, launchpad.programId, MAINNET_GENESIS).rpc(),
        "InvalidConfig",
      );
    });
  });

  describe("launch (signed decision)", () => {
    let fixture: LaunchpadFixture;
    let launcher: Keypair;
    let holder: Keypair;
    let registry: PublicKey;
    beforeEach(async () => {
      fixture = await deployedLaunchpad();
      registry = fixture.programId;
      launcher = fundedWallet(fixture);
      holder = fundedWallet(fixture);
      await reserveCall(fixture, holder, HELD_PAIR.name, HELD_PAIR.ticker).rpc();
    });

    const plan = (who = launcher, pair = FREE_PAIR, expiresAt = START_TIME + EXPIRES_IN) =>
      planLaunch(fixture.launchpad, registry, who, pair, expiresAt);
    const send = (instructions: TransactionInstruction[], launch: LaunchPlan) =>
      sendInstructions(fixture, instructions, [launch.launcher, launch.mint]);
    const signed = (
      launch: LaunchPlan,
      overrides: Partial<SolanaLaunchDecisionFields> = {},
      signer = fixture.decisionKey,
    ) => signedLaunch(fixture.launchpad, registry, launch, signer, overrides);
    const launched = async (launch: LaunchPlan) => {
      const record = await fixture.launchpad.account.launch.fetch(launch.mint.publicKey);
      return {
        launcher: record.launcher.toBase58(),
        nameHash: Buffer.from(record.nameHash),
        tickerHash: Buffer.from(record.tickerHash),
        decisionSigner: record.decisionSigner.toBase58(),
        launchedAt: BigInt(record.launchedAt.toString()),
      };
    };
    const expectLaunched = async (launch: LaunchPlan, signer: PublicKey) => {
      expect(await launched(launch)).to.deep.equal({
        launcher: launch.launcher.publicKey.toBase58(),
        nameHash: Buffer.from(foldedHashBytes(foldV1(launch.name))),
        tickerHash: Buffer.from(foldedHashBytes(foldV1(launch.ticker))),
        decisionSigner: signer.toBase58(),
        launchedAt: START_TIME,
      });
      const account = await fixture.provider.connection.getAccountInfo(launch.mint.publicKey);
      expect(account?.owner.toBase58()).to.equal(fixture.launchpad.programId.toBase58());
    };
    const mintExists = async (launch: LaunchPlan) =>
      (await fixture.provider.connection.getAccountInfo(launch.mint.publicKey)) !== null;

    it("a valid allow decision launches: the mint account records launcher, the folded pair's keys and the signer", async () => {
      const launch = plan();
      await send(await signed(launch), launch);
      await expectLaunched(launch, fixture.decisionKey.publicKey);
    });

    it("launches the pair's holder with an allow decision; refuses another wallet even with an allow decision (the registry decides)", async () => {
      const held = plan(holder, HELD_PAIR);
      await send(await signed(held), held);
      await expectLaunched(held, fixture.decisionKey.publicKey);
      const copycat = plan(launcher, HELD_PAIR);
      await expectErrorFrom(send(await signed(copycat), copycat), "LaunchRefused", registry);
      expect(await mintExists(copycat)).to.equal(false);
    });

    it("refuses a spoofed instructions sysvar account (a forged decision that no Ed25519 instruction verified)", async () => {
      const launch = plan();
      const forgedDecision = Ed25519Program.createInstructionWithPublicKey({
        publicKey: fixture.decisionKey.publicKey.toBytes(),
        message: solanaLaunchDecisionMessage(launch.fields),
        signature: Buffer.alloc(64),
      });
      const instruction = await launchInstruction(fixture.launchpad, registry, launch);
      const fake = plantAccount(
        fixture,
        instructionsSysvarData([forgedDecision, instruction], 1),
        new PublicKey("Sysvar1111111111111111111111111111111111111"),
      );
      await expectErrorFrom(
        send([withKey(instruction, 6, { pubkey: fake })], launch),
        "InvalidInstructionsSysvar",
        fixture.launchpad.programId,
      );
    });

    describe("the Relay 'wrong offset' bug: what the Ed25519 program verified is not what the launch reads", () => {
      /** These attacks carry two Ed25519 payloads: v0 transactions through a lookup table, paid by the launcher. */
      const sendLarge = (instructions: TransactionInstruction[], launch: LaunchPlan) => {
        const {
          launcher: _signer,
          mint: _alsoSigner,
          ...lookedUp
        } = launchAccounts(fixture.launchpad, registry, launch);
        const table = plantLookupTable(fixture, Object.values(lookedUp));
        return sendVersioned(fixture, launch.launcher, instructions, [launch.mint], table);
      };

      it("refuses signature, key and message offsets pointing into another instruction (a valid signature there)", async () => {
        const launch = plan();
        const attacker = Keypair.generate();
        // Instruction 0 carries the attacker's own valid signature; instruction 1 claims the trusted key and a forged
        // allow in its own data (signature zeros), but its indices send the Ed25519 program to instruction 0.
        const carrier = decisionInstruction(attacker, randomBytes(SOLANA_LAUNCH_DECISION_SIZE));
        const redirected = Ed25519Program.createInstructionWithPublicKey({
          publicKey: fixture.decisionKey.publicKey.toBytes(),
          message: solanaLaunchDecisionMessage(launch.fields),
          signature: Buffer.alloc(64),
          instructionIndex: 0,
        });
        const instruction = await launchInstruction(fixture.launchpad, registry, launch);
        await expectErrorFrom(
          sendLarge([carrier, redirected, instruction], launch),
          "DecisionMalformed",
          fixture.launchpad.programId,
        );
      });

      it("refuses a message index pointing at another instruction that holds an older decision the trusted key signed", async () => {
        const launch = plan();
        const older = solanaLaunchDecisionMessage({ ...launch.fields, decision: "block" });
        const carrier = decisionInstruction(fixture.decisionKey, older);
        // Own data: trusted key, its real signature of the older (block) decision, and a forged allow; only the
        // message index points elsewhere, so the Ed25519 program verifies the block decision in instruction 0.
        const relayed = Ed25519Program.createInstructionWithPublicKey({
          publicKey: fixture.decisionKey.publicKey.toBytes(),
          message: solanaLaunchDecisionMessage(launch.fields),
          signature: signEd25519(fixture.decisionKey, older),
        });
        relayed.data.writeUInt16LE(0, 14);
        const instruction = await launchInstruction(fixture.launchpad, registry, launch);
        await expectErrorFrom(
          sendLarge([carrier, relayed, instruction], launch),
          "DecisionMalformed",
          fixture.launchpad.programId,
        );
      });

      it("refuses offsets inside its own data that are not the standard ones (a forged message where the launch reads, a signed one elsewhere)", async () => {
        const launch = plan();
        const older = solanaLaunchDecisionMessage({ ...launch.fields, decision: "block" });
        const forged = solanaLaunchDecisionMessage(launch.fields);
        const key = fixture.decisionKey.publicKey.toBuffer();
        const appended = Buffer.concat([
          Buffer.from([1, 0]),
          ed25519Header({
            signature: 377,
            signatureIndex: SELF,
            pubkey: 16,
            pubkeyIndex: SELF,
            message: 441,
            messageSize: 265,
            messageIndex: SELF,
          }),
          key,
          Buffer.alloc(64),
          forged,
          signEd25519(fixture.decisionKey, older),
          older,
        ]);
        const instruction = await launchInstruction(fixture.launchpad, registry, launch);
        const withData = (data: Buffer) =>
          new TransactionInstruction({ keys: [], programId: Ed25519Program.programId, data });
        await expectErrorFrom(
          sendLarge([withData(appended), instruction], launch),
          "DecisionMalformed",
          fixture.launchpad.programId,
        );
        // The right message signed by the trusted key, the standard length, but another order: refused too.
        const reordered = Buffer.concat([
          Buffer.from([1, 0]),
          ed25519Header({
            signature: 313,
            signatureIndex: SELF,
            pubkey: 281,
            pubkeyIndex: SELF,
            message: 16,
            messageSize: 265,
            messageIndex: SELF,
          }),
          forged,
          key,
          signEd25519(fixture.decisionKey, forged),
        ]);
        const again = await launchInstruction(fixture.launchpad, registry, launch);
        await expectErrorFrom(
          sendLarge([withData(reordered), again], launch),
          "DecisionMalformed",
          fixture.launchpad.programId,
        );
      });
    });

    it("refuses an Ed25519 instruction with more than one signature", async () => {
      const launch = plan();
      const message = solanaLaunchDecisionMessage(launch.fields);
      const other = Keypair.generate();
      const junk = randomBytes(32);
      // Header of two offset records (30 bytes), then each signature's key, signature and message.
      const first = 30;
      const second = first + 32 + 64 + 265;
      const data = Buffer.concat([
        Buffer.from([2, 0]),
        ed25519Header({
          signature: first + 32,
          signatureIndex: SELF,
          pubkey: first,
          pubkeyIndex: SELF,
          message: first + 96,
          messageSize: 265,
          messageIndex: SELF,
        }),
        ed25519Header({
          signature: second + 32,
          signatureIndex: SELF,
          pubkey: second,
          pubkeyIndex: SELF,
          message: second + 96,
          messageSize: 32,
          messageIndex: SELF,
        }),
        fixture.decisionKey.publicKey.toBuffer(),
        signEd25519(fixture.decisionKey, message),
        message,
        other.publicKey.toBuffer(),
        signEd25519(other, junk),
        junk,
      ]);
      const twoSignatures = new TransactionInstruction({
        keys: [],
        programId: Ed25519Program.programId,
        data,
      });
      await expectErrorFrom(
        send([twoSignatures, await launchInstruction(fixture.launchpad, registry, launch)], launch),
        "DecisionMalformed",
        fixture.launchpad.programId,
      );
    });

    it("refuses the Ed25519 instruction anywhere but right before the launch", async () => {
      const launch = plan();
      const [decision, instruction] = await signed(launch);
      const transfer = SystemProgram.transfer({
        fromPubkey: launcher.publicKey,
        toPubkey: holder.publicKey,
        lamports: 1,
      });
      for (const order of [
        [decision, transfer, instruction],
        [instruction, decision],
      ]) {
        await expectErrorFrom(send(order, launch), "DecisionMissing", fixture.launchpad.programId);
      }
      await expectErrorFrom(send([instruction], launch), "DecisionMissing", fixture.launchpad.programId);
      expect(await mintExists(launch)).to.equal(false);
    });

    it("refuses one Ed25519 instruction used by two launches in one transaction (the whole transaction fails)", async () => {
      const first = plan();
      const second = { ...first, mint: Keypair.generate() };
      const [decision, launchFirst] = await signed(first);
      const launchSecond = await launchInstruction(fixture.launchpad, registry, second);
      await expectErrorFrom(
        sendInstructions(fixture, [decision, launchFirst, launchSecond], [launcher, first.mint, second.mint]),
        "DecisionMissing",
        fixture.launchpad.programId,
      );
      expect(await mintExists(first)).to.equal(false);
      expect(await mintExists(second)).to.equal(false);
    });

    it("refuses a decision for another launcher, mint, launchpad program, registry, cluster, pair, expiry or nonce", async () => {
      const cases: [string, Partial<SolanaLaunchDecisionFields>][] = [
        ["launcher", { launcher: holder.publicKey }],
        ["mint", { mint: Keypair.generate().publicKey }],
        ["launchpad program", { launchpadProgram: Keypair.generate().publicKey }],
        ["registry", { registryProgram: Keypair.generate().publicKey }],
        ["cluster", { cluster: DEVNET_GENESIS }],
        ["name", { nameHash: foldedHashBytes(foldV1("Doge Coins")) }],
        ["ticker", { tickerHash: foldedHashBytes(foldV1("DOGEE")) }],
        ["expiry", { expiresAt: START_TIME + EXPIRES_IN + 1n }],
        ["nonce", { nonce: randomBytes(16) }],
      ];
      for (const [field, override] of cases) {
        const launch = plan();
        await expectErrorFrom(
          send(await signed(launch, override), launch),
          "DecisionMismatch",
          fixture.launchpad.programId,
        ).catch((failure: Error) => {
          throw new Error(`a decision for another ${field}: ${failure.message}`);
        });
      }
      // The decision names the folded pair: a launch under another spelling of it is the same launch.
      const spelled = plan(launcher, { name: "d.o.g.e c.o.i.n", ticker: "d0ge" });
      const canonical = {
        nameHash: foldedHashBytes(foldV1(FREE_PAIR.name)),
        tickerHash: foldedHashBytes(foldV1(FREE_PAIR.ticker)),
      };
      await send(await signed(spelled, canonical), spelled);
      await expectLaunched(spelled, fixture.decisionKey.publicKey);
    });

    it("refuses a block decision", async () => {
      const launch = plan();
      await expectErrorFrom(
        send(await signed(launch, { decision: "block" }), launch),
        "DecisionBlocked",
        fixture.launchpad.programId,
      );
    });

    it("refuses an expired decision, from its expiry second on", async () => {
      const launch = plan();
      const instructions = await signed(launch);
      fixture.provider.svm.setUnixTimestamp(launch.expiresAt);
      await expectErrorFrom(send(instructions, launch), "DecisionExpired", fixture.launchpad.programId);
      fixture.provider.svm.setUnixTimestamp(launch.expiresAt - 1n);
      await send(instructions, launch);
      expect(await mintExists(launch)).to.equal(true);
    });

    describe("decision signers (the registry's set)", () => {
      const setSigner = (key: PublicKey, from: bigint, until: bigint) =>
        fixture.program.methods
          .setDecisionSigner(key, new BN(from.toString()), new BN(until.toString()))
          .accountsStrict({ admin: fixture.admin.publicKey, config: configAddress(registry) })
          .rpc();

      it("refuses a key the registry never trusted", async () => {
        const launch = plan();
        await expectErrorFrom(
          send(await signed(launch, {}, Keypair.generate()), launch),
          "UntrustedSigner",
          fixture.launchpad.programId,
        );
      });

      it("refuses a rotated-out key (window ended) and one whose window has not begun", async () => {
        const rotated = Keypair.generate();
        await setSigner(rotated.publicKey, START_TIME - 10n * BigInt(DAY), START_TIME);
        const early = Keypair.generate();
        await setSigner(early.publicKey, START_TIME + 1n, START_TIME + BigInt(DAY));
        for (const key of [rotated, early]) {
          const launch = plan();
          await expectErrorFrom(
            send(await signed(launch, {}, key), launch),
            "UntrustedSigner",
            fixture.launchpad.programId,
          );
        }
        // A window that ends while the decision is still unexpired: refused from valid_until on.
        const ending = Keypair.generate();
        await setSigner(ending.publicKey, START_TIME - 1n, START_TIME + 100n);
        const launch = plan(launcher, FREE_PAIR, START_TIME + 1000n);
        const instructions = await signed(launch, {}, ending);
        fixture.provider.svm.setUnixTimestamp(START_TIME + 100n);
        await expectErrorFrom(send(instructions, launch), "UntrustedSigner", fixture.launchpad.programId);
        fixture.provider.svm.setUnixTimestamp(START_TIME + 99n);
        await send(instructions, launch);
        expect(await mintExists(launch)).to.equal(true);
      });

      it("refuses a revoked key", async () => {
        const launch = plan();
        const instructions = await signed(launch);
        await fixture.program.methods
          .revokeDecisionSigner(fixture.decisionKey.publicKey)
          .accountsStrict({ admin: fixture.admin.publicKey, config: configAddress(registry) })
          .rpc();
        await expectErrorFrom(send(instructions, launch), "UntrustedSigner", fixture.launchpad.programId);
      });
    });

    it("refuses the launch reached by CPI from another program (a router), even with a valid decision before it", async () => {
      const router = await deployCpiCaller(fixture.provider);
      const launch = plan();
      const [decision, instruction] = await signed(launch);
      await expectErrorFrom(
        send([decision, throughCaller(router, instruction)], launch),
        "NotTopLevel",
        fixture.launchpad.programId,
      );
    });

    it("refuses a reservation account that is not the pair's PDA, or is owned by another program (the registry's checks)", async () => {
      const copycat = plan(launcher, HELD_PAIR);
      const held = reservationAddress(registry, foldedHashBytes("PEPE"), foldedHashBytes("PEPE"));
      // Another pair's PDA, or any other address, for the held pair: InvalidPda (the registry re-derives it).
      for (const address of [
        reservationAddress(registry, foldedHashBytes("DOGECOIN"), foldedHashBytes("DOGE")),
        Keypair.generate().publicKey,
      ]) {
        const [decision, instruction] = await signed(copycat);
        await expectErrorFrom(
          send([decision, withKey(instruction, 4, { pubkey: address })], copycat),
          "InvalidPda",
          registry,
        );
      }
      // A copy of the live reservation under another program, naming the copycat as holder.
      const data = Buffer.from(accountData(fixture, held));
      launcher.publicKey.toBuffer().copy(data, 8);
      const foreign = plantAccount(fixture, data, Keypair.generate().publicKey);
      const [decision2, instruction2] = await signed(copycat);
      await expectErrorFrom(
        send([decision2, withKey(instruction2, 4, { pubkey: foreign })], copycat),
        "InvalidAccount",
        registry,
      );
    });

    it("refuses a registry config that is not the one its config names, and a registry program that is not its registry", async () => {
      const launch = plan();
      const attacker = Keypair.generate();
      // The registry's config copied elsewhere with the attacker's key as a decision signer.
      const data = Buffer.from(accountData(fixture, configAddress(registry)));
      attacker.publicKey.toBuffer().copy(data, 252);
      data.writeBigInt64LE(0n, 252 + 32);
      data.writeBigInt64LE(2n ** 62n, 252 + 40);
      for (const owner of [registry, attacker.publicKey]) {
        const fake = plantAccount(fixture, data, owner);
        const [decision, instruction] = await signed(launch, {}, attacker);
        await expectErrorFrom(
          send([decision, withKey(instruction, 3, { pubkey: fake })], launch),
          "InvalidPda",
          fixture.launchpad.programId,
        );
      }
      const impostor = await deployCpiCaller(fixture.provider);
      const [decision, instruction] = await signed(launch, { registryProgram: impostor });
      await expectErrorFrom(
        send([decision, withKey(instruction, 5, { pubkey: impostor })], launch),
        "InvalidProgramId",
        fixture.launchpad.programId,
      );
    });

    it("refuses a mint that already exists (a decision replayed for the same mint)", async () => {
      const launch = plan();
      await send(await signed(launch), launch);
      fixture.provider.svm.svm.expireBlockhash();
      await expectErrorFrom(
        send(await signed(launch), launch),
        "InvalidAccount",
        fixture.launchpad.programId,
      );
    });

    it("refuses a launch whose launcher or mint did not sign", async () => {
      const launch = plan();
      const [decision, instruction] = await signed(launch);
      await expectErrorFrom(
        sendInstructions(fixture, [decision, withKey(instruction, 2, { isSigner: false })], [launcher]),
        "MissingSigner",
        fixture.launchpad.programId,
      );
    });
  });

  describe("launch_registry_only (trustless)", () => {
    let fixture: LaunchpadFixture;
    let holder: Keypair;
    beforeEach(async () => {
      fixture = await deployedLaunchpad();
      holder = fundedWallet(fixture);
      await reserveCall(fixture, holder, HELD_PAIR.name, HELD_PAIR.ticker).rpc();
    });

    const launchBy = async (launcher: Keypair, pair: { name: string; ticker: string }) => {
      const launch = planLaunch(fixture.launchpad, fixture.programId, launcher, pair, 0n);
      await sendInstructions(
        fixture,
        [await registryOnlyInstruction(fixture.launchpad, fixture.programId, launch)],
        [launcher, launch.mint],
      );
      return launch;
    };

    it("reverts for a pair another wallet reserved (commit + reveal), for any spelling of it", async () => {
      const copycat = fundedWallet(fixture);
      await expectErrorFrom(launchBy(copycat, HELD_PAIR), "LaunchRefused", fixture.programId);
      await expectErrorFrom(
        launchBy(copycat, { name: "p3p3", ticker: "pepe" }),
        "LaunchRefused",
        fixture.programId,
      );
    });

    it("launches for the holder and for a free pair, recording no decision signer", async () => {
      for (const [launcher, pair] of [
        [holder, HELD_PAIR],
        [fundedWallet(fixture), FREE_PAIR],
      ] as const) {
        const launch = await launchBy(launcher, pair);
        const record = await fixture.launchpad.account.launch.fetch(launch.mint.publicKey);
        expect(record.launcher.toBase58()).to.equal(launcher.publicKey.toBase58());
        expect(Buffer.from(record.nameHash)).to.deep.equal(Buffer.from(foldedHashBytes(foldV1(pair.name))));
        expect(Buffer.from(record.tickerHash)).to.deep.equal(
          Buffer.from(foldedHashBytes(foldV1(pair.ticker))),
        );
        expect(record.decisionSigner.toBase58()).to.equal(PublicKey.default.toBase58());
      }
    });

    it("launches a pair whose reservation expired, for anyone", async () => {
      fixture.provider.svm.setUnixTimestamp(START_TIME + BigInt(DAY));
      const launch = await launchBy(fundedWallet(fixture), HELD_PAIR);
      expect(await fixture.provider.connection.getAccountInfo(launch.mint.publicKey)).to.not.equal(null);
    });
  });

  it("sends through the Anchor client too (accounts resolved from the IDL)", async () => {
    const fixture = await deployedLaunchpad();
    const launcher = fundedWallet(fixture);
    const launch = planLaunch(
      fixture.launchpad,
      fixture.programId,
      launcher,
      FREE_PAIR,
      START_TIME + EXPIRES_IN,
    );
    const [decision] = await signedLaunch(fixture.launchpad, fixture.programId, launch, fixture.decisionKey);
    await fixture.launchpad.methods
      .launch(launch.name, launch.ticker, new BN(launch.expiresAt.toString()), Array.from(launch.nonce))
      .accounts({
        launcher: launcher.publicKey,
        mint: launch.mint.publicKey,
        reservation: reserveCall(fixture, launcher, FREE_PAIR.name, FREE_PAIR.ticker).plan.accounts
          .reservation,
        registryProgram: fixture.programId,
      })
      .preInstructions([decision])
      .signers([launcher, launch.mint])
      .rpc();
    expect(
      (await fixture.launchpad.account.launch.fetch(launch.mint.publicKey)).launcher.toBase58(),
    ).to.equal(launcher.publicKey.toBase58());
  });
});
