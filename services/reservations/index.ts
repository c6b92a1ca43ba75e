// The reservations context's public face: the reservation service (quote, prepare, status and submission,
// sandbox confirm, the embed pair, the Solana helpers' chain reads) and the views its answers are shown with.
import type { PublicKey } from "@solana/web3.js";
import type {
  OnChainCommitment,
  RegistryCatalogue,
  RegistryQuote,
  TransactionOutcome,
} from "../../chains/registryClient";
import type { ReserveContext } from "../../chains/solana/registryClient";
import type { RecentBlockhash } from "../../chains/solana/transaction";
import type { Environment } from "../../core/environment";
import { ApiError } from "../../core/errors/catalogue";
import type { NormalizedIdentity } from "../../core/fold";
import type { ReservationDuration } from "../../core/reservation";
import type { DataPath } from "../dataPath";
import { normalizedOrReject } from "../identity/identityInput";
import { fromChain, registryFor } from "./chainAccess";
import { embedOriginAllowed, embedPartnerOf } from "./embedLaunchpads";
import { type Attribution, prepareReservation } from "./prepare";
import { reconcileReservation } from "./reconcile";
import type { Reservation } from "./record";
import { confirmSandboxReservation } from "./sandboxConfirm";
import { sandboxSolanaRegistry, solanaRegistry } from "./solanaRegistry";
import { reservationById, transition } from "./store";
import { recordSubmission, type SubmittedStep } from "./submission";

export type { Attribution } from "./prepare";
export { quoteAmountView, quoteView } from "./quoteView";
export { type Reservation, reservationView } from "./record";

/** A prepare as the partner or browser sent it, before folding. */
export interface PrepareInput {
  chain: string;
  name: string;
  ticker: string;
  launcher: string;
  durationSeconds: ReservationDuration;
}

export interface PreparedReservation {
  reservation: Reservation;
  quote: RegistryQuote;
}

/** A reported transaction: the reservation after it, which step it was taken for, and the commitment on-chain. */
export interface SubmittedReservation {
  reservation: Reservation;
  step: SubmittedStep;
  /** A commit report: the registry's commitment, null while the chain does not hold it yet. */
  commitment?: OnChainCommitment | null;
}

/** The partner a reservation belongs to. */
export interface ReservationOwner {
  partnerId: string;
  environment: Environment;
}

export interface ReservationService {
  /** The price of a tier on a chain, from the registry's own feed; 503 price_unavailable when stale. */
  quote(
    environment: Environment,
    chain: string,
    durationSeconds: ReservationDuration,
  ): Promise<RegistryQuote>;
  /** Prechecks, a creator-signable transaction and the revenue-share snapshot; protects nothing yet. */
  prepare(
    environment: Environment,
    attribution: Attribution,
    input: PrepareInput,
  ): Promise<PreparedReservation>;
  /** A browser's prepare, attributed to the allowlisted launchpad's partner; 403 launchpad_not_allowed. */
  prepareEmbedded(
    environment: Environment,
    launchpad: string,
    input: PrepareInput,
  ): Promise<PreparedReservation>;
  /** Whether a browser on `origin` may call the embed pair: registered for an enabled, allowlisted launchpad. */
  embedOriginAllowed(origin: string): Promise<boolean>;
  /** The owner's reservation of its environment; 404 for any other (no hint that it exists elsewhere). */
  own(owner: ReservationOwner, reservationId: string): Promise<Reservation>;
  /** Records the wallet's transaction on the owner's reservation and answers its reconciled state. */
  submit(
    owner: ReservationOwner,
    reservationId: string,
    transactionHash: string,
  ): Promise<SubmittedReservation>;
  /** An embedded reservation's transaction settled: once confirmed, stamps it settled (else 409). */
  settleEmbedded(
    environment: Environment,
    reservationId: string,
    transactionHash: string,
  ): Promise<Reservation>;
  /** Sandbox only: confirms a simulated prepare without payment. */
  confirmSandbox(owner: ReservationOwner, reservationId: string): Promise<Reservation>;
  /**
   * The Solana helpers read `environment`'s registry (the sandbox's own deployment on the sandbox host); the chain
   * may be omitted when there is one. A registry's quote of a tier:
   */
  solanaQuote(
    environment: Environment,
    chain: string | undefined,
    durationSeconds: ReservationDuration,
  ): Promise<RegistryQuote>;
  /** Everything a wallet needs to build reserve (or renew) itself. */
  solanaReserveContext(
    environment: Environment,
    chain: string | undefined,
    identity: NormalizedIdentity,
    launcher: PublicKey,
  ): Promise<{ chain: string; context: ReserveContext }>;
  solanaBlockhash(
    environment: Environment,
    chain: string | undefined,
  ): Promise<{ chain: string; blockhash: RecentBlockhash }>;
  solanaTransaction(
    environment: Environment,
    chain: string | undefined,
    signature: string,
  ): Promise<{ chain: string; outcome: TransactionOutcome }>;
}

export function reservationService(
  data: DataPath,
  registries: RegistryCatalogue | undefined,
  now: () => number,
): ReservationService {
  const { pool } = data;
  const registryOf = (environment: Environment, chain: string) =>
    registryFor(registries?.[environment], chain);
  const solana = (environment: Environment, chain: string | undefined) =>
    environment === "production"
      ? solanaRegistry(registries?.production, chain)
      : sandboxSolanaRegistry(registries, chain);
  const clock = () => new Date(now());

  async function prepare(environment: Environment, attribution: Attribution, input: PrepareInput) {
    const registry = registryOf(environment, input.chain);
    const identity = normalizedOrReject(input.name, input.ticker);
    return data.run(() =>
      prepareReservation(pool, registry, data.context(environment), attribution, {
        identity,
        launcher: input.launcher,
        durationSeconds: input.durationSeconds,
      }),
    );
  }

  /**
   * Records the transaction, then answers the freshest state: a commitment as the registry holds it; a paying
   * transaction as the reconciler finds it in the mirror and on the chain.
   */
  async function submitAndReconcile(
    reservation: Reservation,
    transactionHash: string,
  ): Promise<SubmittedReservation> {
    const registry = registryOf(reservation.environment, reservation.chain);
    const submitted = await recordSubmission(pool, registry, reservation, transactionHash, clock());
    if (submitted.step === "commit" && reservation.reveal !== null) {
      const commitment = await fromChain(
        registry.commitmentOf(reservation.launcher, reservation.reveal.commitment),
      );
      return { ...submitted, commitment };
    }
    if (registries === undefined) return submitted;
    const reconciled = await reconcileReservation(
      { pool, registries, now: clock },
      submitted.reservation.reservationId,
    );
    return { ...submitted, reservation: reconciled ?? submitted.reservation };
  }

  async function own(owner: ReservationOwner, reservationId: string): Promise<Reservation> {
    const reservation = await reservationById(pool, reservationId, { environment: owner.environment });
    if (reservation === undefined || reservation.partnerId !== owner.partnerId) {
      throw new ApiError("reservation_not_found", undefined, { reservationId });
    }
    return reservation;
  }

  return {
    quote: async (environment, chain, durationSeconds) =>
      fromChain(registryOf(environment, chain).quote(durationSeconds)),
    prepare,
    async prepareEmbedded(environment, launchpad, input) {
      const partnerId = await embedPartnerOf(pool, environment, launchpad);
      if (partnerId === undefined) throw new ApiError("launchpad_not_allowed", undefined, { launchpad });
      return prepare(environment, { partnerId, apiKeyId: null, launchpad, source: "embed" }, input);
    },
    embedOriginAllowed: (origin) => embedOriginAllowed(pool, origin),
    own,
    async submit(owner, reservationId, transactionHash) {
      return submitAndReconcile(await own(owner, reservationId), transactionHash);
    },
    async settleEmbedded(environment, reservationId, transactionHash) {
      const reservation = await reservationById(pool, reservationId, { environment });
      if (reservation === undefined || reservation.source !== "embed") {
        throw new ApiError("reservation_not_found", undefined, { reservationId });
      }
      const { reservation: current } = await submitAndReconcile(reservation, transactionHash);
      if (current.status !== "confirmed") {
        throw new ApiError("reservation_not_confirmed", undefined, {
          reservationId: current.reservationId,
          status: current.status,
        });
      }
      if (current.settledAt !== null) return current;
      const settled = await transition(pool, current.reservationId, "confirmed", "confirmed", {
        settled_at: clock(),
      });
      return settled ?? current;
    },
    async confirmSandbox(owner, reservationId) {
      if (owner.environment !== "sandbox") throw new ApiError("sandbox_only");
      return data.run(() =>
        confirmSandboxReservation(pool, data.context("sandbox"), owner.partnerId, reservationId),
      );
    },
    solanaQuote: async (environment, chain, durationSeconds) =>
      fromChain(solana(environment, chain).quote(durationSeconds)),
    async solanaReserveContext(environment, chain, identity, launcher) {
      const registry = solana(environment, chain);
      return { chain: registry.chain, context: await fromChain(registry.reserveContext(identity, launcher)) };
    },
    async solanaBlockhash(environment, chain) {
      const registry = solana(environment, chain);
      return { chain: registry.chain, blockhash: await fromChain(registry.latestBlockhash()) };
    },
    async solanaTransaction(environment, chain, signature) {
      const registry = solana(environment, chain);
      return { chain: registry.chain, outcome: await fromChain(registry.transactionOutcome(signature)) };
    },
  };
}
