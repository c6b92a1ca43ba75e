// A launchpad's own litesvm tests: the identity registry and the guarded launch program loaded from the committed
// .so files, configured as a local deployment (a program-owned SOL/USD price, 1-slot commitments), with helpers to
// trust a decision key, reserve a pair and send transactions. Synchronous, as LiteSVM is.
import { Keypair, PublicKey, type TransactionInstruction } from "@solana/web3.js";
import { Clock, type LiteSVM, type TransactionMetadata } from "litesvm";
import type { ReservationDuration } from "../../../core/reservation/policy";
import { type DecisionSignerWindow, yearFrom } from "./decisionSignerWindow";
import { airdrop, deployUpgradeable, sendInstructions } from "./liteSvm";
import { readProgram } from "./programFiles";
import {
  commit,
  initializeLaunchpad,
  initializeRegistry,
  pushPrice,
  reveal,
  setDecisionSigner,
} from "./programInstructions";

/** The programs' local development ids (their IDLs' addresses; `npm run localnet` deploys them there). */
export const LOCAL_REGISTRY_PROGRAM_ID = new PublicKey("8ayMv5K1FBk5RzfRSq7CDDGsbdNxDqXiULxfEKC3eQGt");
export const LOCAL_LAUNCHPAD_PROGRAM_ID = new PublicKey("G7EAqxqWsG7n4ZVfuXMuHzd65G84pgW7RmRA5w4QRbW9");
/** Mainnet-beta's genesis hash: the cluster the launch program accepts decisions for unless told otherwise. */
export const MAINNET_BETA_GENESIS_HASH = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d";

const DAY_SECONDS = 86_400;
const WALLET_LAMPORTS = 100_000_000_000n;

export interface LoadIdentityProgramsOptions {
  /** Upgrade authority and admin of both programs, funded here. Default: a fresh keypair. */
  admin?: Keypair;
  registryProgram?: PublicKey;
  launchpadProgram?: PublicKey;
  /** The genesis hash (base58) the launch program accepts decisions for. Default: mainnet-beta's. */
  cluster?: string;
  /**
   * Unix seconds the clock is moved to first: a fresh LiteSVM's clock reads 1970, when no real decision is valid.
   * Default: now.
   */
  unixTimestamp?: bigint;
}

export interface IdentityPrograms {
  svm: LiteSVM;
  admin: Keypair;
  registryProgram: PublicKey;
  launchpadProgram: PublicKey;
  /** The genesis hash (base58) the launch program accepts decisions for: a decision's `cluster`. */
  cluster: string;
  /** A new wallet holding 100 SOL. */
  fundedWallet(): Keypair;
  /** Trusts `key`'s launch decisions, by default from the clock's time for a year. */
  setDecisionSigner(key: PublicKey, window?: DecisionSignerWindow): void;
  /**
   * `launcher` reserves the pair for `durationSeconds` (default one day), as a creator does: a fresh price is
   * published, then commit, one slot, and the reveal paying the fee.
   */
  reserve(launcher: Keypair, name: string, ticker: string, durationSeconds?: ReservationDuration): void;
  /** Signs (the first signer pays) and executes; throws TestTransactionError with the logs when it fails. */
  send(instructions: TransactionInstruction[], signers: [Keypair, ...Keypair[]]): TransactionMetadata;
}

function moveClock(svm: LiteSVM, unixTimestamp: bigint): void {
  const clock = svm.getClock();
  svm.setClock(
    new Clock(clock.slot, clock.epochStartTimestamp, clock.epoch, clock.leaderScheduleEpoch, unixTimestamp),
  );
}

/**
 * Loads the identity registry and the guarded launch program into `svm` with `admin` as their upgrade authority,
 * initializes the registry with a local SOL/USD price and the launch program for that registry and `cluster`.
 */
export function loadIdentityPrograms(
  svm: LiteSVM,
  options: LoadIdentityProgramsOptions = {},
): IdentityPrograms {
  const admin = options.admin ?? Keypair.generate();
  const registryProgram = options.registryProgram ?? LOCAL_REGISTRY_PROGRAM_ID;
  const launchpadProgram = options.launchpadProgram ?? LOCAL_LAUNCHPAD_PROGRAM_ID;
  const cluster = options.cluster ?? MAINNET_BETA_GENESIS_HASH;
  const now = () => svm.getClock().unixTimestamp;
  const send: IdentityPrograms["send"] = (instructions, signers) =>
    sendInstructions(svm, instructions, signers);
  const fundedWallet = () => {
    const wallet = Keypair.generate();
    airdrop(svm, wallet.publicKey, WALLET_LAMPORTS);
    return wallet;
  };

  moveClock(svm, options.unixTimestamp ?? BigInt(Math.floor(Date.now() / 1000)));
  airdrop(svm, admin.publicKey, WALLET_LAMPORTS);
  deployUpgradeable(svm, registryProgram, readProgram("identity_registry"), admin.publicKey);
  deployUpgradeable(svm, launchpadProgram, readProgram("guarded_launchpad"), admin.publicKey);
  send(
    [
      initializeRegistry(registryProgram, admin.publicKey),
      pushPrice(registryProgram, admin.publicKey, now()),
      initializeLaunchpad(launchpadProgram, admin.publicKey, registryProgram, new PublicKey(cluster)),
    ],
    [admin],
  );

  return {
    svm,
    admin,
    registryProgram,
    launchpadProgram,
    cluster,
    fundedWallet,
    setDecisionSigner(key, window) {
      const { validFrom, validUntil } = window ?? yearFrom(now());
      send([setDecisionSigner(registryProgram, admin.publicKey, key, validFrom, validUntil)], [admin]);
    },
    reserve(launcher, name, ticker, durationSeconds = DAY_SECONDS) {
      const reservation = {
        launcher: launcher.publicKey,
        name,
        ticker,
        durationSeconds,
        secret: crypto.getRandomValues(new Uint8Array(32)),
      };
      send([pushPrice(registryProgram, admin.publicKey, now())], [admin]);
      send([commit(registryProgram, reservation)], [launcher]);
      svm.warpToSlot(svm.getClock().slot + 1n);
      send([reveal(registryProgram, reservation)], [launcher]);
    },
    send,
  };
}
